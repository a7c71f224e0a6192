#===- KilnCompilerFlags.cmake - Warnings, linker, sanitizers --------------===#
#
# Shared by the top-level build and the stand-alone runtime build.
#
#===----------------------------------------------------------------------===#
include_guard(GLOBAL)
include(CheckCXXCompilerFlag)
include(CheckLinkerFlag)

option(KILN_ENABLE_SANITIZERS "Build with AddressSanitizer and UBSan" OFF)
option(KILN_BUILD_FUZZERS
       "Build the compiler's libFuzzer harnesses (fuzz/); needs clang and KILN_ENABLE_SANITIZERS"
       OFF)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

# Warning-clean is a requirement, and deprecated MLIR APIs are errors in our
# code (MLIR 22 deprecates OpBuilder::create<Op> and friends).
add_compile_options(-Wall -Wextra -Wno-unused-parameter
                    -Werror=deprecated-declarations)

if(KILN_USE_LLD AND NOT DEFINED KILN_LLD_CHECKED)
  check_linker_flag(CXX "-fuse-ld=lld" KILN_LINKER_SUPPORTS_LLD)
  set(KILN_LLD_CHECKED ON CACHE INTERNAL "")
endif()
if(KILN_USE_LLD AND KILN_LINKER_SUPPORTS_LLD)
  add_link_options(-fuse-ld=lld)
endif()

if(KILN_ENABLE_SANITIZERS)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Coverage instrumentation of all of Kiln's code, so libFuzzer sees the edges
# of the importer and the dialects it drives. Only the harnesses link
# libFuzzer itself (-fsanitize=fuzzer, fuzz/CMakeLists.txt); other programs
# of the same build get the sanitizer runtime's no-op coverage callbacks and
# run as usual.
if(KILN_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "KILN_BUILD_FUZZERS needs clang (libFuzzer)")
  endif()
  if(NOT KILN_ENABLE_SANITIZERS)
    message(FATAL_ERROR "KILN_BUILD_FUZZERS needs KILN_ENABLE_SANITIZERS=ON")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
