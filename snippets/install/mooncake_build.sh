# Configure, build and install with the Ascend Direct transport (run inside Mooncake/).
source /usr/local/Ascend/cann/set_env.sh
mkdir -p build
cd build
cmake .. \
  -DUSE_ASCEND_DIRECT=ON \
  -DBUILD_UNIT_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release \
  -DPython3_EXECUTABLE="$(command -v python3)"
cmake --build . -j"$(nproc)"
sudo cmake --install .
