"""Which `Host` names the server answers to (`GRADSTEP_ALLOWED_HOSTS`), as Jupyter does.

A web page on any site can make the browser send requests to `127.0.0.1:8000`; the browser
keeps that page from reading the answers, unless the page's own name is made to point at
127.0.0.1 after it loaded (DNS rebinding): its requests are then same-origin, and carry the
page's name in `Host`. So a server answers only to the names it is known by: `localhost`,
`127.0.0.1`, `[::1]`, the address it is bound to and the names the operator lists. A server
bound to a network address (0.0.0.0, a LAN address) also answers to any address written as
a number, since no page can rename a number; a name it is reached by (a proxy's public name,
`teacher.local`) must be listed, or the list set to `*`.

Example:
    >>> check = HostCheck(bound="127.0.0.1", extra="")
    >>> check.allows("localhost:8000"), check.allows("[::1]:8000"), check.allows("evil.test")
    (True, True, False)
    >>> HostCheck(bound="0.0.0.0", extra="").allows("192.168.1.5:8000")
    True
"""
from __future__ import annotations

import ipaddress

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def host_name(header: str) -> str:
    """The name in a Host header, without its port, brackets or a final dot, lower case.

    Example:
        >>> host_name("[::1]:8000"), host_name("LocalHost.:80"), host_name("10.0.0.1")
        ('::1', 'localhost', '10.0.0.1')
    """
    text = header.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".").lower()


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class HostCheck:
    """The Host names one server answers to."""

    def __init__(self, bound: str, extra: str):
        listed = [host_name(part) for part in extra.split(",") if part.strip()]
        self.anything = "*" in listed
        self.names = {*LOOPBACK_NAMES, host_name(bound), *listed} - {"*", ""}
        # bound to a network address: reached by addresses this server cannot list
        self.numbers = not _is_loopback(host_name(bound))

    def allows(self, header: str | None) -> bool:
        if self.anything or header is None:     # no Host (HTTP/1.0): no page sent it
            return True
        name = host_name(header)
        return name in self.names or (self.numbers and _is_address(name))

    def refusal(self, header: str) -> str:
        """The 403 message: what was refused, why, and how to allow it."""
        name = host_name(header)[:100]
        shown = ", ".join(f"[{n}]" if ":" in n else n for n in sorted(self.names))
        return (f"This gradstep server does not answer to the host name '{name}': a web page "
                f"could use such a name to reach a server on this computer. It answers to "
                f"{shown}{' and any numeric address' if self.numbers else ''}. To reach it "
                f"by this name, start it with GRADSTEP_ALLOWED_HOSTS={name}.")
