"""A secret of the visitor's browser that never appears in a URL, to bind what the server keeps for it.

Streamlit protects its endpoints with Tornado's XSRF token, kept in the
browser's cookie ``_streamlit_xsrf`` (XSRF protection is on by default) and
sent with every session's connection. The cookie reads
``2|<mask>|<masked token>|<time>``: the token is masked anew on every page
load (a byte-wise xor with a random 4-byte mask), but the token itself stays
the same for as long as the browser keeps the cookie (until it closes), and
another browser has another one. :func:`secret` unmasks it and returns its
digest, so a kept upload can be bound to the browser that made it
(``datasets.UploadShelf``) while its token travels in the address bar.
"""

import binascii
import hashlib

import streamlit as st

__all__ = ["XSRF_COOKIE", "binding_available", "secret", "unmasked_token"]

XSRF_COOKIE = "_streamlit_xsrf"


def unmasked_token(cookie):
    """The XSRF token in Tornado's version-2 cookie ``cookie``, as bytes; None if it is not one.

    Tornado (``RequestHandler._decode_xsrf_token``): ``2|mask|masked|timestamp``,
    mask and masked token in hex, token = masked xor mask (repeated).
    """
    parts = str(cookie).split("|")
    if len(parts) != 4 or parts[0] != "2":
        return None
    try:
        mask, masked = binascii.a2b_hex(parts[1]), binascii.a2b_hex(parts[2])
    except (binascii.Error, ValueError):
        return None
    if len(mask) != 4 or not masked:
        return None
    return bytes(byte ^ mask[i % 4] for i, byte in enumerate(masked))


def secret(cookies=None):
    """The digest of this browser's XSRF token ("" without one: a test harness, no cookie).

    Parameters
    ----------
    cookies : mapping, optional
        The session's cookies (``st.context.cookies`` by default).
    """
    cookies = st.context.cookies if cookies is None else cookies
    token = unmasked_token(cookies.get(XSRF_COOKIE, ""))
    return "" if token is None else hashlib.sha256(b"tree-bias-lab upload|" + token).hexdigest()


def binding_available():
    """Whether the server can tell browsers apart (Streamlit's XSRF protection is on)."""
    return bool(st.get_option("server.enableXsrfProtection"))
