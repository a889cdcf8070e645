# medusa_add_program(<name> SOURCES <emv sources...>
#                    [OTHER_SOURCES <plain sources...>]
#                    [BACKENDS cuda host]            # default: both if Medusa has CUDA
#                    [INCLUDE_DIRECTORIES <dirs...>] [COMPILE_DEFINITIONS <defs...>]
#                    [LINK_LIBRARIES <libs...>]
#                    [TRANSLATOR_OPTIONS <medusa-cc options...>]  # e.g. --no-edge-parallel
#                    [CUDA_ARCHITECTURES <archs...>])  # default: see below
#
# Runs medusa-cc on each EMV source (a custom command that depends on the source and on the tool,
# so editing either regenerates and rebuilds) and creates
#   <name>        the CUDA program (when the CUDA language is enabled and `cuda` is requested)
#   <name>_host   the same program on the host (OpenMP) backend (when `host` is requested)
# The translated files land in ${CMAKE_CURRENT_BINARY_DIR}/medusa-generated/<name>/ for reading
# and tuning. With MEDUSA_PREGENERATED_DIR set, files translated elsewhere are used instead of
# running medusa-cc (for machines without Clang).
# The CUDA program is built for CUDA_ARCHITECTURES if given, else for CMAKE_CUDA_ARCHITECTURES if
# the project set it, else (installed Medusa) for the architectures Medusa was built for.
# docs/programming-guide.md ("Build it") documents every option.
include_guard(GLOBAL)

function(_medusa_find_translator out_var)
  if(TARGET medusa-cc)
    set(${out_var} medusa-cc PARENT_SCOPE)
  elseif(TARGET Medusa::medusa-cc)
    set(${out_var} Medusa::medusa-cc PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE)
  endif()
endfunction()

# True when CMAKE_CUDA_ARCHITECTURES is the value CMake picked by itself when CUDA was enabled (the
# compiler's default, e.g. sm_75, for which ptxas warns that Medusa's launch bounds ask for more
# threads per SM than it has), not one the project, the command line or CUDAARCHS chose. CMake
# marks its own cache entry with the help string "CUDA architectures"; a project that writes the
# same help string itself is taken for the default (CUDA_ARCHITECTURES then chooses).
function(_medusa_cuda_architectures_defaulted out_var)
  get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
  get_property(cached CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY VALUE)
  if(help STREQUAL "CUDA architectures" AND "$ENV{CUDAARCHS}" STREQUAL ""
     AND "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${cached}")
    set(${out_var} TRUE PARENT_SCOPE)
  else()
    set(${out_var} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(medusa_add_program name)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "" "SOURCES;OTHER_SOURCES;BACKENDS;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;LINK_LIBRARIES;TRANSLATOR_OPTIONS;CUDA_ARCHITECTURES")
  if(arg_UNPARSED_ARGUMENTS)
    message(SEND_ERROR "medusa_add_program(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    return()
  endif()
  if(NOT arg_SOURCES)
    message(SEND_ERROR "medusa_add_program(${name}): SOURCES names no EMV source to translate")
    return()
  endif()

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(medusa_has_cuda FALSE)
  if(TARGET Medusa::cuda OR TARGET medusa_cuda)
    set(medusa_has_cuda TRUE)
  endif()
  set(available host)
  if(CUDA IN_LIST languages AND medusa_has_cuda)
    list(APPEND available cuda)
  endif()
  set(backends_explicit TRUE)
  if(NOT arg_BACKENDS)
    set(backends_explicit FALSE)
    set(arg_BACKENDS host)
    if(medusa_has_cuda)
      set(arg_BACKENDS cuda host)
    endif()
  endif()
  foreach(backend IN LISTS arg_BACKENDS)
    if(NOT backend MATCHES "^(cuda|host)$")
      message(SEND_ERROR "medusa_add_program(${name}): unknown backend '${backend}' (use cuda, host)")
      return()
    endif()
  endforeach()
  # Medusa has CUDA but the project did not enable the language: without this, `${name}` is
  # silently missing and building it fails later with "unknown target". The default backends only
  # warn, as the host program is still made and is all a CPU-only project needs; an explicit
  # `cuda` is an error, since what was asked for cannot be made.
  if(cuda IN_LIST arg_BACKENDS AND medusa_has_cuda AND NOT CUDA IN_LIST languages)
    set(level WARNING)
    set(outcome "only ${name}_host is made")
    if(backends_explicit)
      set(level SEND_ERROR)
      set(outcome "it cannot be made")
    endif()
    message(${level} "medusa_add_program(${name}): the CUDA program '${name}' needs the CUDA "
      "language, which this project does not enable, so ${outcome}. Add `enable_language(CUDA)` "
      "before medusa_add_program(), or declare `project(<project> LANGUAGES CXX CUDA)`; to build "
      "only the host (OpenMP) program, pass `BACKENDS host`.")
  endif()
  # A backend this build lacks (Medusa or the project without CUDA) is skipped, not an error.
  string(REPLACE ";" "|" available_re "${available}")
  list(FILTER arg_BACKENDS INCLUDE REGEX "^(${available_re})$")

  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/medusa-generated/${name})
  set(source_dirs)  # the translated file lives elsewhere: keep the user's "relative" includes working
  set(cu_files)
  set(cpp_files)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(src_abs ${src} ABSOLUTE)
    if(NOT EXISTS ${src_abs})
      message(SEND_ERROR "medusa_add_program(${name}): source ${src} does not exist")
      return()
    endif()
    get_filename_component(stem ${src_abs} NAME_WE)
    get_filename_component(src_dir ${src_abs} DIRECTORY)
    list(APPEND source_dirs ${src_dir})
    set(cu ${out_dir}/${stem}.medusa.cu)
    set(cpp ${out_dir}/${stem}.medusa.cpp)
    list(APPEND cu_files ${cu})
    list(APPEND cpp_files ${cpp})

    if(MEDUSA_PREGENERATED_DIR)
      foreach(f ${stem}.medusa.cu ${stem}.medusa.cpp)
        set(pre ${MEDUSA_PREGENERATED_DIR}/${name}/${f})
        if(NOT EXISTS ${pre})
          message(SEND_ERROR "medusa_add_program(${name}): MEDUSA_PREGENERATED_DIR has no ${name}/${f}")
          return()
        endif()
        configure_file(${pre} ${out_dir}/${f} COPYONLY)
      endforeach()
      continue()
    endif()

    _medusa_find_translator(translator)
    if(NOT translator)
      message(SEND_ERROR "medusa_add_program(${name}): medusa-cc is not available: build the frontend "
                         "(MEDUSA_BUILD_FRONTEND=ON), find_package(Medusa) from an install that has it, "
                         "or set MEDUSA_PREGENERATED_DIR")
      return()
    endif()
    set(extra_args)
    foreach(dir IN LISTS arg_INCLUDE_DIRECTORIES)
      get_filename_component(dir_abs ${dir} ABSOLUTE)
      list(APPEND extra_args -I${dir_abs})
    endforeach()
    foreach(def IN LISTS arg_COMPILE_DEFINITIONS)
      list(APPEND extra_args -D${def})
    endforeach()
    add_custom_command(
      OUTPUT ${cu} ${cpp}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND $<TARGET_FILE:${translator}> --backend=both ${arg_TRANSLATOR_OPTIONS} -o ${out_dir} ${src_abs}
              -- ${extra_args}
      DEPENDS ${src_abs} ${translator}
      COMMENT "medusa-cc: translating ${src} for ${name}"
      VERBATIM)
  endforeach()

  set(targets)
  if(cuda IN_LIST arg_BACKENDS)
    add_executable(${name} ${cu_files} ${arg_OTHER_SOURCES})
    if(TARGET Medusa::cuda)
      target_link_libraries(${name} PRIVATE Medusa::cuda)
    else()
      target_link_libraries(${name} PRIVATE medusa_cuda)
    endif()
    if(arg_CUDA_ARCHITECTURES)
      set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES "${arg_CUDA_ARCHITECTURES}")
    elseif(MEDUSA_CUDA_ARCHITECTURES)
      _medusa_cuda_architectures_defaulted(defaulted)
      if(defaulted)
        set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES "${MEDUSA_CUDA_ARCHITECTURES}")
      endif()
    endif()
    list(APPEND targets ${name})
  endif()
  if(host IN_LIST arg_BACKENDS)
    add_executable(${name}_host ${cpp_files} ${arg_OTHER_SOURCES})
    if(TARGET Medusa::host)
      target_link_libraries(${name}_host PRIVATE Medusa::host)
    else()
      target_link_libraries(${name}_host PRIVATE medusa_host)
    endif()
    list(APPEND targets ${name}_host)
  endif()
  foreach(t IN LISTS targets)
    target_include_directories(${t} PRIVATE ${source_dirs} ${arg_INCLUDE_DIRECTORIES})
    target_compile_definitions(${t} PRIVATE ${arg_COMPILE_DEFINITIONS})
    target_link_libraries(${t} PRIVATE ${arg_LINK_LIBRARIES})
  endforeach()
endfunction()
