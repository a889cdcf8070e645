# Graph input and generation: library medusa_io (readers, writers, generators) and the medusa-gen
# tool. Included from runtime/CMakeLists.txt; paths are relative to this file so that it can also
# be included from elsewhere (test/io includes it when the runtime has not).
include_guard(GLOBAL)

find_package(LibLZMA REQUIRED GLOBAL)  # Debian: liblzma-dev
find_package(ZLIB REQUIRED GLOBAL)     # Debian: zlib1g-dev

set(_medusa_io_dir ${CMAKE_CURRENT_LIST_DIR})
add_library(medusa_io STATIC
  ${_medusa_io_dir}/src/io/byte_source.cpp
  ${_medusa_io_dir}/src/io/line_reader.cpp
  ${_medusa_io_dir}/src/io/line_fields.cpp
  ${_medusa_io_dir}/src/io/read_matrix_market.cpp
  ${_medusa_io_dir}/src/io/read_snap.cpp
  ${_medusa_io_dir}/src/io/read_dimacs.cpp
  ${_medusa_io_dir}/src/io/read_metis.cpp
  ${_medusa_io_dir}/src/io/binary_cache.cpp
  ${_medusa_io_dir}/src/io/edge_sort.cpp
  ${_medusa_io_dir}/src/io/read_graph.cpp
  ${_medusa_io_dir}/src/io/write_graph.cpp
  ${_medusa_io_dir}/src/io/graph_summary.cpp
  ${_medusa_io_dir}/src/io/weights.cpp
  ${_medusa_io_dir}/src/io/generators/random.cpp
  ${_medusa_io_dir}/src/io/generators/finish_edges.cpp
  ${_medusa_io_dir}/src/io/generators/kronecker.cpp
  ${_medusa_io_dir}/src/io/generators/rmat.cpp
  ${_medusa_io_dir}/src/io/generators/uniform.cpp
  ${_medusa_io_dir}/src/io/generators/bipartite.cpp
  ${_medusa_io_dir}/src/io/generators/grid.cpp
  ${_medusa_io_dir}/src/io/gen_command.cpp
  ${_medusa_io_dir}/src/io/populated_memory.cpp
)
add_library(Medusa::io ALIAS medusa_io)
# Only headers of the runtime are needed (medusa/graph.h, error.h, types.h), not medusa_runtime.
target_include_directories(medusa_io
  PUBLIC $<BUILD_INTERFACE:${_medusa_io_dir}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
  PRIVATE ${_medusa_io_dir}/src/io)
target_compile_features(medusa_io PUBLIC cxx_std_17)
target_link_libraries(medusa_io PUBLIC OpenMP::OpenMP_CXX PRIVATE LibLZMA::LibLZMA ZLIB::ZLIB)
set_target_properties(medusa_io PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME io)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(medusa_io PRIVATE -Wall -Wextra)
endif()

add_executable(medusa-gen ${_medusa_io_dir}/tools/medusa-gen/main.cpp)
target_link_libraries(medusa-gen PRIVATE medusa_io)
set_target_properties(medusa-gen PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
install(TARGETS medusa-gen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS medusa_io EXPORT MedusaTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
