"""A local network segment made of Linux network namespaces, for the `lan://` tests.

One namespace holds a bridge (the segment: a switch, or a Wi-Fi access point); every unit
gets its own namespace joined to it by a veth pair, with an address, a default route and
the loopback up, as a computer on a home network has. An impaired segment makes traffic
lossy, late, duplicated and reordered: with `tc netem` on every unit's interface where the
kernel has netem, else with a user-space switch (impair_switch.py) in place of the bridge,
which does the same to every frame it forwards. Everything is removed on close (deleting a
namespace deletes its interfaces); nothing touches the test's own namespace.

Needs root and `ip` (iproute2). `skip_reason()` says why not.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from itertools import count
from pathlib import Path

_made = count()
HERE = Path(__file__).resolve().parent


def skip_reason() -> str | None:
    """Why these tests cannot run here, or None."""
    if os.geteuid() != 0:
        return "network namespaces need root (ip netns add)"
    if shutil.which("ip") is None:
        return "no `ip` (iproute2) on this machine"
    probe = f"tfprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


@functools.cache
def netem_available() -> bool:
    """The kernel has tc's netem (a container's or a micro-VM's often has not)."""
    if shutil.which("tc") is None:
        return False
    probe = f"tfnetem{os.getpid()}"
    _ip("netns", "add", probe)
    try:
        cmd = ["ip", "netns", "exec", probe, "tc", "qdisc", "add", "dev", "lo", "root"]
        return subprocess.run([*cmd, "netem", "loss", "1%"], capture_output=True).returncode == 0
    finally:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


class Segment:
    """`units` namespaces on one segment: unit i is 10.N.0.(i+1)/24 on its eth0. `impair`
    (netem's words, e.g. "loss 10% delay 10ms 8ms") impairs every unit's traffic."""

    def __init__(self, units: int, impair: str = "") -> None:
        n = next(_made)
        self.prefix = f"tf{os.getpid() % 100000}s{n}"
        self.subnet = 10 + (os.getpid() + n) % 200
        self.bridge = f"{self.prefix}br"
        self.names: list[str] = []
        self.procs: list[subprocess.Popen[bytes]] = []
        self.switch: subprocess.Popen[str] | None = None
        # how the impairment is made ("" without one): "netem", or the user-space switch
        self.impairment = "" if not impair else "netem" if netem_available() else "switch"
        try:
            _ip("netns", "add", self.bridge)
            if self.impairment != "switch":
                br = ["-n", self.bridge, "link", "add", "br0", "type", "bridge"]
                _ip(*br, "mcast_snooping", "0")
                _ip("-n", self.bridge, "link", "set", "br0", "up")
            for i in range(units):
                self.add()
                if self.impairment == "netem":
                    self.netem(i, impair)
            if self.impairment == "switch":
                self._start_switch(impair)
        except BaseException:
            self.close()
            raise

    def _start_switch(self, impair: str) -> None:
        ports = [f"p{i}" for i in range(len(self.names))]
        cmd = ["ip", "netns", "exec", self.bridge, sys.executable]
        cmd += [str(HERE / "impair_switch.py"), impair, *ports]
        self.switch = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        assert self.switch.stdout is not None
        if self.switch.stdout.readline().strip() != "ready":  # it bound its ports
            raise RuntimeError("the impairing switch did not start")

    def add(self) -> int:
        """One more namespace on the segment; its index."""
        i = len(self.names)
        ns = f"{self.prefix}u{i}"
        _ip("netns", "add", ns)
        self.names.append(ns)
        if self.switch is not None:
            raise RuntimeError("the impairing switch serves the units it started with")
        port = f"p{i}"
        veth = ["-n", self.bridge, "link", "add", port, "type", "veth", "peer", "name", "eth0"]
        _ip(*veth, "netns", ns)
        if self.impairment == "switch":
            _ip("-n", self.bridge, "link", "set", port, "up")
        else:
            _ip("-n", self.bridge, "link", "set", port, "master", "br0", "up")
        _ip("-n", ns, "addr", "add", self.address(i) + "/24", "dev", "eth0")
        _ip("-n", ns, "link", "set", "eth0", "up")
        _ip("-n", ns, "link", "set", "lo", "up")
        _ip("-n", ns, "route", "add", "default", "dev", "eth0")
        return i

    def address(self, i: int) -> str:
        return f"10.{self.subnet}.0.{i + 1}"

    def netem(self, i: int, spec: str) -> None:
        """Impair what unit i sends, e.g. "loss 10% delay 20ms 10ms"."""
        cmd = ["ip", "netns", "exec", self.names[i], "tc", "qdisc", "replace", "dev", "eth0"]
        done = subprocess.run(
            [*cmd, "root", "netem", *spec.split()], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(f"tc netem {spec}: {done.stderr.strip()}")

    def popen(
        self, i: int, cmd: list[str], log: Path, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        """`cmd` run in unit i's namespace, its output into `log`."""
        with log.open("wb") as out:
            proc = subprocess.Popen(
                ["ip", "netns", "exec", self.names[i], *cmd],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in [*self.procs, *([self.switch] if self.switch else [])]:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for ns in [*self.names, self.bridge]:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def __enter__(self) -> Segment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
