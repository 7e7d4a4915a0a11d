"""The bot protocol's parts, one concept a module: reading requests (requests), the bot that
answers them (answers), the loop that serves them on stdin and stdout (loop). protocol.py is
their face and the `serve` command."""
