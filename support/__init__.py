"""The parts of common.py, one concept a module: where files are (paths), what a person sees on
stderr (console), the word lists (words), what a word is: its lemmas, spellings and
frequency, kept for the shipped lists (lexicon), and files written safely (files).

`common` is their public face: the rest of the project imports from it."""
