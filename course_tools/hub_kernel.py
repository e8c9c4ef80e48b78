"""The kernel of the course's JupyterHub servers: ipykernel without its debugger.

    python -m course_tools.hub_kernel -f CONNECTION_FILE

JupyterLab's debugger asks the kernel to start debugpy, which then listens on a TCP port of
127.0.0.1 with no authentication: any local user, another student included, could connect to it
and run code in this student's kernel. The hub's servers start their kernels with this module
(the kernel spec ``python3`` in ``hub/jupyter/kernels/``, found first through ``JUPYTER_PATH``):
it tells ipykernel that debugpy is not available before the kernel starts, so the kernel reports
``debugger: false``, answers no ``debug_request`` and never opens that port. JupyterLab's
debugger extension is disabled on those servers too (``hub/jupyter/labconfig/page_config.json``).
"""

import sys
from pathlib import Path


def main() -> None:
    # as ipykernel_launcher does: the notebook's folder is not on sys.path while ipykernel loads
    # (IPython puts it back for the student's own imports)
    if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
        del sys.path[0]
    import ipykernel.debugger

    ipykernel.debugger._is_debugpy_available = (
        False  # ipykernel reads it at each use (kernel_info, debug_request)
    )
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    sys.argv[0] = "course_tools.hub_kernel"
    main()
