"""How llama.cpp is built for the local llama.cpp server: one list of portable CMake flags, wheels kept per flags.

scripts/servers/llama_cpp_flags.txt holds the flags (a portable baseline: GGML_NATIVE=OFF; on x86-64 AVX2, FMA,
F16C, BMI2 on and AVX-512 / AMX off). A built wheel is kept in ~/.cache/videodemo/llama-cpp-wheels/<key>/ (or
under $VIDEODEMO_LLAMA_WHEELS), where the key hashes the llama-cpp-python version, the machine (`uname -m`) and
the flags, beside a record of them (`llama-cpp-build.txt`). Installing the wheel copies that record into the
server's environment, so an environment built with other flags, or before there were records, is told apart
and installed again. pip's own wheel cache keys a build by the sdist alone, which is how a native build outlived
a change of flags (issue 59): the build therefore runs `pip wheel --no-cache-dir`.

Stdlib only: scripts/servers/llama_cpp.sh runs it by path before any environment exists.

    python3 model_access/local_servers/llama_cpp_build.py version      # the llama-cpp-python release installed
    python3 model_access/local_servers/llama_cpp_build.py cmake-args   # CMAKE_ARGS on this machine
    python3 model_access/local_servers/llama_cpp_build.py wheel-dir    # this build's cache folder
    python3 model_access/local_servers/llama_cpp_build.py record       # this build's record
    python3 model_access/local_servers/llama_cpp_build.py matches DIR  # exit 0 when DIR holds this build's record
    python3 model_access/local_servers/llama_cpp_build.py check-cpu    # exit 1, one line, when the CPU lacks one
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FLAGS_FILE = PROJECT_ROOT / "scripts" / "servers" / "llama_cpp_flags.txt"
RECORD_NAME = "llama-cpp-build.txt"
VERSION = "0.3.36"  # llama-cpp-python; its vendored llama.cpp is what gets built

# ggml's x86 options and the /proc/cpuinfo flag of the instructions each compiles in.
CPU_FLAG_OF = {
    "SSE42": "sse4_2", "AVX": "avx", "AVX2": "avx2", "FMA": "fma", "F16C": "f16c", "BMI2": "bmi2",
    "AVX_VNNI": "avx_vnni", "AVX512": "avx512f", "AVX512_VBMI": "avx512vbmi", "AVX512_VNNI": "avx512_vnni",
    "AVX512_BF16": "avx512_bf16", "AMX_TILE": "amx_tile", "AMX_INT8": "amx_int8", "AMX_BF16": "amx_bf16",
}  # fmt: skip
_DEFINE = re.compile(r"^-D(GGML_[A-Z0-9_]+)=(\S+)$")
_TRUE = {"ON", "1", "TRUE", "YES", "Y"}


def machine() -> str:
    return platform.machine().lower()


def cmake_args(arch: str | None = None, text: str | None = None) -> list[str]:
    """The flags file's arguments that apply on `arch` (default: this machine), in the file's order."""
    arch = arch or machine()
    found: list[str] = []
    for raw in (FLAGS_FILE.read_text(encoding="utf-8") if text is None else text).splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        prefix, sep, rest = line.partition(":")
        if sep and not prefix.startswith("-"):
            if prefix.strip().lower() != arch:
                continue
            line = rest.strip()
        found.extend(line.split())
    return found


def ggml_options(args: list[str]) -> dict[str, bool]:
    """`-DGGML_X=ON`-style arguments as {X: on}; a later one wins, as in CMake."""
    options: dict[str, bool] = {}
    for arg in args:
        if match := _DEFINE.match(arg):
            options[match[1].removeprefix("GGML_")] = match[2].upper() in _TRUE
    return options


def machine_specific(args: list[str]) -> list[str]:
    """What would tie a build to the CPU it was built on; empty for a portable build."""
    found: list[str] = []
    options = ggml_options(args)
    if options.get("NATIVE", True):  # ggml turns NATIVE on unless told otherwise
        found.append("GGML_NATIVE is not OFF (ggml's default is ON: -march=native)")
    found += [arg for arg in args if re.search(r"-m(arch|cpu|tune)=native", arg)]
    found += [f"GGML_{name}=ON" for name, on in options.items() if on and name.startswith(("AVX512", "AMX"))]
    return found


def build_record(version: str = VERSION, arch: str | None = None, args: list[str] | None = None) -> str:
    """What one build is: the llama-cpp-python version, the machine and the CMake arguments."""
    arch = arch or machine()
    args = cmake_args(arch) if args is None else args
    return f"llama-cpp-python=={version}\nmachine={arch}\nCMAKE_ARGS={' '.join(args)}\n"


def record_args(record: str) -> list[str]:
    """The CMake arguments a record names."""
    for line in record.splitlines():
        if line.startswith("CMAKE_ARGS="):
            return line.removeprefix("CMAKE_ARGS=").split()
    return []


def wheel_cache_root() -> Path:
    default = Path.home() / ".cache" / "videodemo" / "llama-cpp-wheels"
    return Path(os.environ.get("VIDEODEMO_LLAMA_WHEELS") or default)


def wheel_dir(version: str = VERSION) -> Path:
    """This build's folder in the wheel cache: keyed by a hash of its record."""
    key = hashlib.sha256(build_record(version).encode()).hexdigest()[:16]
    return wheel_cache_root() / key


def matches(folder: Path, version: str = VERSION) -> bool:
    """Whether `folder` (a wheel cache folder or a server environment) holds this build's record."""
    try:
        return (folder / RECORD_NAME).read_text(encoding="utf-8") == build_record(version)
    except OSError:
        return False


def missing_cpu_features(args: list[str] | None = None, cpuinfo: str | None = None) -> list[str]:
    """The instruction sets the flags turn on that this CPU lacks (x86 Linux; elsewhere none are known)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
    have: set[str] = set()
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            have |= set(line.partition(":")[2].split())
    if not have:
        return []
    options = ggml_options(cmake_args() if args is None else args)
    return [CPU_FLAG_OF[name] for name, on in options.items() if on and name in CPU_FLAG_OF
            and CPU_FLAG_OF[name] not in have]  # fmt: skip


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if command == "version":
        print(VERSION)
    elif command == "cmake-args":
        print(" ".join(cmake_args()))
    elif command == "wheel-dir":
        print(wheel_dir())
    elif command == "record":
        sys.stdout.write(build_record())
    elif command == "matches" and len(rest) == 1:
        return 0 if matches(Path(rest[0])) else 1
    elif command == "check-cpu":
        if missing := missing_cpu_features():
            print(f"[servers] error: this CPU lacks {', '.join(missing)}, which {FLAGS_FILE} turns on for llama.cpp; "
                  "turn them off there and run the install again", file=sys.stderr)  # fmt: skip
            return 1
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
