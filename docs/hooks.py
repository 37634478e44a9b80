"""MkDocs hooks: pages written from the code at build time.

* ``<!-- designer:cli-reference -->`` becomes the ``--help`` of every
  command and sub-command, taken from :func:`designer.cli.build_parser`;
* ``<!-- designer:support-table -->`` becomes the table of what each
  command takes, from :func:`designer.support.markdown_table`.

The help is wrapped at 80 columns (``COLUMNS=80``), as in an 80-column
terminal, so the page is the same on every machine.

On the API page, objects are named by the package that exports them
(``designer.search.StudyError``), not by the private module that defines
them, in the tooltips mkdocstrings writes.
"""

import argparse
import os

CLI_MARK = "<!-- designer:cli-reference -->"
SUPPORT_MARK = "<!-- designer:support-table -->"
#: Modules whose objects the manual names by their package (re-exported there).
PUBLIC = {"designer.search.spec.": "designer.search."}


def _subcommands(parser):
    """The ``name -> parser`` map of a parser's sub-commands (empty if none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def _sections(parser, words, level):
    """One heading and one help block per command, sub-commands after."""
    out = []
    for name, sub in _subcommands(parser).items():
        path = [*words, name]
        out.append(f"{'#' * level} `designer {' '.join(path)}`\n")
        out.append("```text\n" + sub.format_help().rstrip() + "\n```\n")
        out.extend(_sections(sub, path, level + 1))
    return out


def cli_reference():
    """The command reference as Markdown."""
    os.environ["COLUMNS"] = "80"  # argparse wraps at the terminal width
    from designer.cli import build_parser

    parser = build_parser()
    top = "## `designer`\n\n```text\n" + parser.format_help().rstrip() + "\n```\n"
    return "\n".join([top, *_sections(parser, [], 2)])


def on_page_markdown(markdown, page, config, files):
    if CLI_MARK in markdown:
        markdown = markdown.replace(CLI_MARK, cli_reference())
    if SUPPORT_MARK in markdown:
        from designer.support import markdown_table

        markdown = markdown.replace(SUPPORT_MARK, markdown_table())
    return markdown


def on_post_page(output, page, config):
    # after the cross-references are resolved (they write the tooltips)
    for private, public in PUBLIC.items():
        output = output.replace(f'title="{private}', f'title="{public}')
    return output
