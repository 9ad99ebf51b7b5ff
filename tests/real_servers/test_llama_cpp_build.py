"""llama.cpp is built for a portable CPU baseline, never for the build machine's own (issue 59).

A native build on a CPU with AVX-512 and AMX died with SIGILL on its first completion. The flags are read the way
scripts/servers/llama_cpp.sh reads them (model_access/local_servers/llama_cpp_build.py, run by path), then what the
installed build recorded, then what the installed library says it was compiled with.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from model_access.local_servers import llama_cpp_build as build
from model_access.local_servers.process import servers_dir
from tests.real_servers.conftest import REQUIRE

HELPER = build.PROJECT_ROOT / "model_access" / "local_servers" / "llama_cpp_build.py"
BASELINE = ("SSE42", "AVX", "AVX2", "FMA", "F16C", "BMI2")
NEVER = ("AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16", "AMX_TILE", "AMX_INT8", "AMX_BF16")


def _script_args() -> list[str]:
    """CMAKE_ARGS exactly as the install script gets them."""
    done = subprocess.run([sys.executable, str(HELPER), "cmake-args"], capture_output=True, text=True, check=True)
    return done.stdout.split()


def _assert_portable(args: list[str], arch: str) -> None:
    assert "-DGGML_NATIVE=OFF" in args
    assert not any("native" in arg for arg in args), args
    assert build.machine_specific(args) == []
    options = build.ggml_options(args)
    if arch == "x86_64":
        assert all(options.get(name) is True for name in BASELINE), options
        assert all(options.get(name) is False for name in NEVER), options  # said OFF, not left to defaults
    else:
        assert not any(name.startswith(("AVX", "AMX")) for name in options), options


def test_the_install_scripts_flags_name_no_native_cpu_target() -> None:
    args = _script_args()
    assert args == build.cmake_args()
    _assert_portable(args, build.machine())
    for arch in ("x86_64", "aarch64"):
        _assert_portable(build.cmake_args(arch), arch)


def test_a_machine_specific_flag_is_caught_and_changes_the_cache_key() -> None:
    assert build.machine_specific([])  # ggml's NATIVE default is ON
    assert build.machine_specific(["-DGGML_NATIVE=OFF", "-DGGML_NATIVE=ON"])  # the last one wins
    assert build.machine_specific(["-DGGML_NATIVE=OFF", "-DCMAKE_C_FLAGS=-march=native"])
    assert build.machine_specific(["-DGGML_NATIVE=OFF", "-DGGML_AMX_INT8=1"]) == ["GGML_AMX_INT8=ON"]
    portable = build.build_record(args=build.cmake_args())
    assert build.build_record(args=[*build.cmake_args(), "-DGGML_AVX512=ON"]) != portable
    assert build.build_record("0.0.1") != build.build_record()
    assert build.record_args(portable) == build.cmake_args()


def test_the_built_wheel_and_the_installed_server_record_portable_flags() -> None:
    records = [folder / build.RECORD_NAME for folder in (build.wheel_dir(), servers_dir() / "llama_cpp")]
    installed = (servers_dir() / "llama_cpp" / ".installed").is_file()
    if installed and not records[1].is_file():
        pytest.fail(f"{servers_dir() / 'llama_cpp'} holds a llama.cpp with no record of its build flags (built "
                    "before they were recorded, perhaps for this CPU only): run bash scripts/servers/llama_cpp.sh")
    found = [record for record in records if record.is_file()]
    if not found:
        pytest.skip("no llama.cpp built here yet (bash scripts/servers/llama_cpp.sh builds it)")
    for record in found:
        text = record.read_text(encoding="utf-8")
        _assert_portable(build.record_args(text), build.machine())
        assert text == build.build_record(), f"{record} is another build's: {text}"


def test_the_installed_library_has_no_avx512_or_amx_compiled_in() -> None:
    python = servers_dir() / "llama_cpp" / "bin" / "python"
    if not (servers_dir() / "llama_cpp" / ".installed").is_file():
        message = f"the llama.cpp server is not installed ({python}); run: bash scripts/servers/llama_cpp.sh"
        if REQUIRE:
            pytest.fail(message)
        pytest.skip(message)
    code = "import llama_cpp; print(llama_cpp.llama_print_system_info().decode())"
    info = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout
    # ggml prints the instruction sets it was compiled for: "CPU : SSE3 = 1 | ... | AVX2 = 1 | ...".
    assert "CPU :" in info, info
    for name in ("AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16", "AMX_INT8"):
        assert f"{name} = 1" not in info, info
    if build.machine() == "x86_64":
        assert "AVX2 = 1" in info, info
