#===- KilnMLIR.cmake - Find LLVM/MLIR 22 and set up their CMake helpers ---===#
include_guard(GLOBAL)

find_package(MLIR REQUIRED CONFIG HINTS /usr/lib/llvm-22/lib/cmake/mlir)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "Kiln needs LLVM/MLIR 22, found ${LLVM_PACKAGE_VERSION} "
                      "(set MLIR_DIR to /usr/lib/llvm-22/lib/cmake/mlir)")
endif()
message(STATUS "Kiln: using MLIRConfig.cmake in ${MLIR_DIR}")
message(STATUS "Kiln: using LLVMConfig.cmake in ${LLVM_DIR}")

set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

# Debian's packages ship libMLIR.so and libLLVM.so; linking them keeps every
# tool small and the link fast. MLIRConfig does not export this switch.
set(MLIR_LINK_MLIR_DYLIB ON)

# The packages are built without exceptions but with RTTI.
if(NOT LLVM_ENABLE_EH)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions>)
endif()

# LLVM_DEFINITIONS is one space-separated string.
separate_arguments(KILN_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_definitions(${KILN_LLVM_DEFINITIONS})

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
# The include root is the repository root; generated .inc files land at the
# same relative path under the build tree.
# compiler/API/include holds the public headers (kiln/kiln.h, ...).
include_directories(${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}
                    ${PROJECT_SOURCE_DIR}/compiler/API/include)

set(KILN_TOOLS_DIR ${CMAKE_BINARY_DIR}/bin)

# lit and FileCheck come from the LLVM packages (not on PATH on Debian).
if(NOT LLVM_EXTERNAL_LIT AND EXISTS "${LLVM_TOOLS_BINARY_DIR}/lit")
  set(LLVM_EXTERNAL_LIT "${LLVM_TOOLS_BINARY_DIR}/lit" CACHE FILEPATH "lit")
endif()
