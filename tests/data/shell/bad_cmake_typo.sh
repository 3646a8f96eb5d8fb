source /usr/local/Ascend/cann/set_env.sh
mkdir -p build && cd build
cmake .. -DUSE_ASCEND_DIRCT=ON -DBUILD_UNIT_TESTS=OFF
make -j
