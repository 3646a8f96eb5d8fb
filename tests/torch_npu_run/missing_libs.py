"""Find the shared libraries torch_npu's ATB plugin needs that this machine lacks, and stand in for each with an empty
library of its name, in one process.

    python missing_libs.py TARGET STUBS CC
After ``import torch``, ``torch_npu/lib/libop_plugin_atb.so`` of the wheel unpacked in TARGET is loaded with
``ctypes.CDLL`` (what atb_probe.py's ``raw`` loader calls). While the dynamic linker says a library cannot be found,
an empty library of that name is built with CC into STUBS (a folder on this process's LD_LIBRARY_PATH: the linker
looks in it again at each load) and the plugin is loaded again. Prints, as JSON, the libraries built in order and the
linker's last error (an undefined symbol once nothing is missing)."""

import ctypes
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import torch  # noqa: F401  (loaded first, as in atb_probe.py: its libraries are there for the plugin)

plugin, stubs, cc = Path(sys.argv[1]) / "torch_npu" / "lib" / "libop_plugin_atb.so", Path(sys.argv[2]), sys.argv[3]
assert str(stubs) in os.environ.get("LD_LIBRARY_PATH", "").split(":"), "STUBS must be on LD_LIBRARY_PATH"
built: list[str] = []
error = ""
for _ in range(20):
    try:
        ctypes.CDLL(str(plugin))
    except OSError as e:
        error = str(e)
    else:
        error = ""
    missing = re.match(r"(lib[\w.+-]+\.so[.\d]*): cannot open shared object file", error)
    if missing is None:
        break
    subprocess.run([cc, "-shared", "-o", str(stubs / missing.group(1)), "-x", "c", os.devnull], check=True)
    built.append(missing.group(1))
print(json.dumps({"built": built, "error": error}))
