"""Owns where the poll listens: the machine's IPv4 addresses, the one a phone on the LAN can
reach by default, and `--poll HOST:PORT` as typed on the command line."""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from dataclasses import dataclass
from typing import TextIO

from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface

__all__ = ["ANY_HOST", "DEFAULT_PORT", "LOOPBACK", "Interface", "announce", "default_address",
           "ipv4_interfaces", "parse_poll_address", "poll_address", "route_address",
           "shown_host"]

DEFAULT_PORT = 8423
LOOPBACK = "127.0.0.1"
ANY_HOST = "0.0.0.0"
_PROBE = ("10.255.255.255", 9)
"""A private address no LAN routes to itself: connecting a UDP socket to it sends nothing, but
makes the system pick the source address of its default route, the one phones can reach."""


@dataclass(frozen=True)
class Interface:
    """One IPv4 address of this machine, named as the system names its interface."""

    name: str
    address: str
    loopback: bool


def route_address() -> str | None:
    """The address the default route leaves from (no packet is sent), or None offline."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address in (ANY_HOST, "") else address


def ipv4_interfaces() -> list[Interface]:
    """Every IPv4 address of an interface that is up, the LAN's default first, loopback last,
    so a teacher with Wi-Fi, Ethernet and a VPN can pick the network the class is on."""
    found = []
    for interface in QNetworkInterface.allInterfaces():
        flags = interface.flags()
        if not (flags & QNetworkInterface.InterfaceFlag.IsUp
                and flags & QNetworkInterface.InterfaceFlag.IsRunning):
            continue
        loopback = bool(flags & QNetworkInterface.InterfaceFlag.IsLoopBack)
        for entry in interface.addressEntries():
            ip = entry.ip()
            if ip.protocol() == QAbstractSocket.NetworkLayerProtocol.IPv4Protocol:
                found.append(Interface(interface.humanReadableName(), ip.toString(), loopback))
    route = route_address()
    return sorted(found, key=lambda i: (i.loopback, i.address != route, i.name, i.address))


def default_address(interfaces: list[Interface] | None = None) -> str:
    """The address to offer first: the default route's, else the first that is not loopback,
    else loopback (a laptop with no network still runs a poll for itself)."""
    route = route_address()
    if route is not None:
        return route
    listed = ipv4_interfaces() if interfaces is None else interfaces
    return next((i.address for i in listed if not i.loopback), LOOPBACK)


def shown_host(bound: str) -> str:
    """The host a phone should open: listening on every interface shows the LAN's default."""
    return default_address() if bound == ANY_HOST else bound


def parse_poll_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` → (IPv4 address, port); port 0 takes any free port. ValueError says why in
    one line."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep or not host:
        raise ValueError(f"expected HOST:PORT such as 127.0.0.1:0, not {text[:40]!r}")
    if host == "localhost":
        host = LOOPBACK
    try:
        host = str(ipaddress.IPv4Address(host))
    except ValueError:
        raise ValueError(f"{host[:40]!r} is not an IPv4 address such as 192.168.1.23") from None
    if not port_text.isascii() or not port_text.isdigit() or len(port_text) > 5 \
            or int(port_text) > 65535:
        raise ValueError(f"the port must be a number from 0 to 65535, not {port_text[:10]!r}")
    return host, int(port_text)


def poll_address(text: str) -> tuple[str, int]:
    """`parse_poll_address` as an argparse type: `--poll HOST:PORT`."""
    try:
        return parse_poll_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def announce(address: str, stream: TextIO | None = None) -> None:
    """Print the address the poll took as one line, for the script that started the app."""
    out = sys.stdout if stream is None else stream
    out.write(address + "\n")
    out.flush()
