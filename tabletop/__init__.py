"""The companion's parts, one concept a module: reading a real table's words and key card
(parsing), the session saved after every step (saved), the command loop (loop). companion.py is
their face and the `companion` command."""
