# GPU: the NCCL engine imports cupy, ray.util.collective and zmq at module level.
python3 -c "import cupy, ray.util.collective, zmq; print('cupy', cupy.__version__)"
# install the cupy build that matches your CUDA major version (CUDA 12.x shown; CUDA 13.x: cupy-cuda13x)
python3 -m pip install cupy-cuda12x
