# FindNCCL: NCCL's header and library, under NCCL_ROOT (CMake or environment variable; e.g. the
# PyPI wheel nvidia-nccl-cu13's nvidia/nccl folder) or the CUDA toolkit. Defines NCCL_FOUND,
# NCCL_VERSION and the imported target NCCL::NCCL.
# A given NCCL_ROOT is the only place looked at: a header from one NCCL and the library of another
# (the wheel's and the toolkit's, say) would mismatch.
set(_nccl_root ${NCCL_ROOT} $ENV{NCCL_ROOT})
if(_nccl_root)
  set(_nccl_where HINTS ${_nccl_root} NO_DEFAULT_PATH)
else()
  set(_nccl_where HINTS ${CUDAToolkit_LIBRARY_ROOT} ${CUDAToolkit_INCLUDE_DIRS}/..)
endif()
find_path(NCCL_INCLUDE_DIR nccl.h ${_nccl_where} PATH_SUFFIXES include)
# (the wheel has only libnccl.so.2; NAMES_PER_DIR keeps a later folder's libnccl.so from winning)
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 NAMES_PER_DIR ${_nccl_where} PATH_SUFFIXES lib lib64)
if(NCCL_INCLUDE_DIR AND EXISTS ${NCCL_INCLUDE_DIR}/nccl.h)
  file(STRINGS ${NCCL_INCLUDE_DIR}/nccl.h _nccl_major REGEX "^#define NCCL_MAJOR [0-9]+")
  file(STRINGS ${NCCL_INCLUDE_DIR}/nccl.h _nccl_minor REGEX "^#define NCCL_MINOR [0-9]+")
  string(REGEX REPLACE "[^0-9]" "" _nccl_major "${_nccl_major}")
  string(REGEX REPLACE "[^0-9]" "" _nccl_minor "${_nccl_minor}")
  set(NCCL_VERSION "${_nccl_major}.${_nccl_minor}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR VERSION_VAR NCCL_VERSION)
if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)
  add_library(NCCL::NCCL UNKNOWN IMPORTED)
  set_target_properties(NCCL::NCCL PROPERTIES IMPORTED_LOCATION ${NCCL_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${NCCL_INCLUDE_DIR})
endif()
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY)
