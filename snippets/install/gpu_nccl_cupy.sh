# GPU: the NCCL engine imports cupy, ray.util.collective and zmq at module level.
python3 -c "import cupy, ray.util.collective, zmq; print('cupy', cupy.__version__)"
# install the cupy build that matches your CUDA major version: verl 0.9.1's backend extras pin torch 2.11.0, a
# CUDA 13 build, and verl's own cupy-cu130 extra pins this cupy (on a CUDA 12.x stack use cupy-cuda12x instead)
python3 -m pip install cupy-cuda13x==14.0.1
