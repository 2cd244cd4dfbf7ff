"""Where ``kit serve`` can be reached: the lines it prints at start.

With ``--host 0.0.0.0`` (or ``::``) the players' phones need the machine's own address on the
network, which the host rarely knows. It is found without sending anything: connecting a UDP
socket only asks the kernel which source address its route to a destination would use (no
packet leaves, no name is looked up).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Callable, Iterable

WILDCARDS = ("", "0.0.0.0", "::")  # every address of this machine
# Destinations whose routes we ask for: each private range, and any public one (the default
# route). Nothing is sent to them.
PROBES = ("10.255.255.254", "172.31.255.254", "192.168.255.254", "198.51.100.1")


def route_source(destination: str) -> str | None:
    """The IPv4 address this machine would send from to ``destination``; None without a route."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((destination, 9))  # UDP: sets the route, sends nothing
        return probe.getsockname()[0]
    return None


def network_addresses(source: Callable[[str], str | None] = route_source,
                      probes: Iterable[str] = PROBES) -> list[str]:
    """This machine's IPv4 addresses that other devices on its networks can open: neither
    loopback, link-local nor unspecified; in address order."""
    found = set()
    for destination in probes:
        address = source(destination)
        if address is None:
            continue
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified):
            found.add(ip)
    return [str(ip) for ip in sorted(found)]


def url(host: str, port: int, path: str = "/") -> str:
    """``http://host:port/path``, an IPv6 address in brackets."""
    bare = host.strip("[]")
    shown = f"[{bare}]" if ":" in bare else bare
    return f"http://{shown}:{port}{path}"


def start_lines(host: str, port: int,
                addresses: Callable[[], list[str]] = network_addresses) -> list[str]:
    """The console's address on this machine, and the addresses phones on the same network
    can open when the server listens there."""
    here = "127.0.0.1" if host in WILDCARDS else host
    lines = [f"kit: game-night console: {url(here, port, '/console')}"]
    if host in WILDCARDS:
        found = addresses()
        if found:
            lines.append("kit: phones on this network: "
                         + ", ".join(url(a, port, "/console") for a in found))
        else:
            lines.append("kit: no network address of this machine found: phones cannot "
                         "reach it until it joins a network")
    return lines
