"""The pieces of scripts/cli_docs.py, which writes tlscope's man page and its
bash and zsh completions from the built binary's --help. They are split by
what they know: helptext reads CLI11's help layout into Arg and Command (and
decides what each value or argument can be), while man, bash and zsh each turn
that one reading into one output, so a change to the help's layout touches
only helptext and a change to one output touches only its module. The entry
point keeps the command line and the writing of files.
"""
