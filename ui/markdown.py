"""Text from outside the app (a link, a file name, a column, a category) shown as text, never as Markdown.

Streamlit renders Markdown in ``st.markdown``, captions, alerts, widget
labels and help, tab and expander labels and radio options, with
extensions of its own: ``:red[...]`` colours, ``:material/...:`` icons,
``:smile:`` emoji, ``$...$`` maths, and GitHub's autolinks (a bare
``http://...`` or ``www.`` becomes a link). A value a user or a link chose
must not speak there: ``![](http://host/x.png)`` would make every visitor's
browser fetch that image, ``[Sign in](http://...)`` would put a live link in
the app's error box.

:func:`plain` is the one helper every page uses for such values. It
writes every ASCII punctuation character as a numeric character reference
(``[`` as ``&#91;``). CommonMark shows a reference as its character and
never reads it as syntax (spec section 2.5: references "cannot be used in
place of symbols indicating structure"), so this covers Markdown,
Streamlit's directives and HTML at once. GitHub's autolinks are another
matter: Streamlit finds them in the text *after* parsing (``remark-gfm``'s
transform of text nodes), where a reference is already its character, so
no escape stops them. An invisible WORD JOINER (U+2060) before every ``:``
and ``.`` and after every ``@`` does: ``http:``, ``www.`` and ``a@b.c`` are
no longer what the transform looks for, and the text reads the same.
Line breaks become spaces: a value is one line and cannot start a
heading or a list of its own.
"""

import html
import re
import string

__all__ = ["plain", "to_text"]

# Every ASCII punctuation character (CommonMark's escapable set), as a numeric reference.
_PUNCTUATION = re.compile("[" + re.escape(string.punctuation) + "]")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c]+")
# U+2060 WORD JOINER: invisible, and breaks the autolink patterns where it stands.
_JOINER = "\u2060"
# The app's own inline Markdown in a sentence: bold, italics and code marks.
_EMPHASIS = re.compile(r"\*\*|\*|`")


def plain(value):
    """``value`` as text that Markdown shows literally.

    Parameters
    ----------
    value : object
        Anything; its ``str`` is shown.

    Returns
    -------
    str
        The text with every ASCII punctuation character written as a
        numeric character reference, a word joiner at ``:``, ``.`` and
        ``@`` (see the module's docstring), and line breaks replaced by
        spaces.
    """
    return _PUNCTUATION.sub(_reference, _LINE_BREAKS.sub(" ", str(value)))


def _reference(match):
    character = match.group()
    if character in ":.":
        return f"{_JOINER}&#{ord(character)};"
    if character == "@":
        return f"&#{ord(character)};{_JOINER}"
    return f"&#{ord(character)};"


def to_text(markdown):
    """A sentence the app wrote in Markdown, as plain text (for the HTML summary).

    The app's emphasis marks go; the references :func:`plain` wrote become
    their characters again, so a user's ``*`` or ``[`` comes back as typed.
    """
    return html.unescape(_EMPHASIS.sub("", markdown)).replace(_JOINER, "")
