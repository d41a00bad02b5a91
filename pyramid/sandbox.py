"""Confinement for a child process that runs untrusted work (a SPARQL query from a question or a user).

    deny_network() -> bool      after it, socket() of every family fails (EACCES) in this process
                                and every thread or child it starts; False where unsupported
    limit_memory(mb)            a ceiling on the process's heap and anonymous memory (RLIMIT_DATA)

Why at the system-call level: a query's text is read by two parsers (our tokenizer for clear refusals,
Oxigraph's for running it), and any disagreement between them (an IRI that one reads as `<` and a
comment) can smuggle a SERVICE clause past the check. Oxigraph's SERVICE client opens a socket;
with socket() refused, a federated query fails inside the engine whatever the text looked like, so
the guarantee does not depend on the two parsers agreeing.

How: a seccomp-BPF filter installed with prctl (no privileges needed once NO_NEW_PRIVS is set). It
checks the architecture (a mismatch is refused, so a 32-bit system-call path cannot slip by), refuses
x32 system calls, refuses socket() whatever the family, and refuses io_uring_setup (io_uring can open
connections without the socket system calls being seen). AF_UNIX is refused too: a local socket
reaches name-service daemons (nscd, systemd-resolved) that make network lookups on the caller's
behalf. socketpair() stays allowed: a connected pair reaches nothing outside the process. Installed before the process
starts threads, so all of them inherit it.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct
import sys

# (AUDIT_ARCH_*, socket, io_uring_setup) per machine; other machines run without the filter.
_ARCH = {
    "x86_64": (0xC000003E, 41, 425),
    "aarch64": (0xC00000B7, 198, 425),
}
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_LD_ABS_W, _JEQ_K, _JGE_K, _RET_K = 0x20, 0x15, 0x35, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
_X32_BIT = 0x40000000
# offsets in struct seccomp_data: nr, arch
_NR, _ARCH_OFF = 0, 4


def _program(arch: int, nr_socket: int, nr_uring: int) -> bytes:
    deny = _ERRNO | errno.EACCES
    # jump offsets count from the next instruction
    insns = [
        (_LD_ABS_W, 0, 0, _ARCH_OFF),     # 0  A = arch
        (_JEQ_K, 0, 5, arch),             # 1  not ours -> 7 deny
        (_LD_ABS_W, 0, 0, _NR),           # 2  A = system call number
        (_JGE_K, 3, 0, _X32_BIT),         # 3  x32 ABI -> 7 deny
        (_JEQ_K, 2, 0, nr_socket),        # 4  socket() of any family -> 7 deny
        (_JEQ_K, 1, 0, nr_uring),         # 5  io_uring_setup -> 7 deny
        (_RET_K, 0, 0, _ALLOW),           # 6
        (_RET_K, 0, 0, deny),             # 7
    ]
    return b"".join(struct.pack("=HBBI", *i) for i in insns)


def deny_network() -> bool:
    """Refuse network sockets to this process from now on; False where it cannot be done (not Linux,
    an unknown machine, or seccomp unavailable)."""
    if not sys.platform.startswith("linux") or platform.machine() not in _ARCH:
        return False
    prog = _program(*_ARCH[platform.machine()])
    count = len(prog) // 8
    buf = ctypes.create_string_buffer(prog, len(prog))

    class _SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _SockFprog(count, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0) != 0:
        return False
    return True


def limit_memory(mb: int) -> None:
    """Cap heap and anonymous mappings (RLIMIT_DATA; file mappings such as the store's are not
    counted). Past it, allocations fail and the process ends; its parent reports that."""
    import resource

    limit = int(mb) * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
