#===- KilnHelpers.cmake - Thin wrappers over MLIR's CMake helpers ---------===#
include_guard(GLOBAL)

# kiln_add_dialect(<Name> <mnemonic>): ODS op/dialect/type generation for a
# dialect whose ops live in <Name>Ops.td; joins the kiln-headers target.
function(kiln_add_dialect name mnemonic)
  add_mlir_dialect(${name}Ops ${mnemonic})
  if(NOT TARGET kiln-headers)
    add_custom_target(kiln-headers)
  endif()
  add_dependencies(kiln-headers MLIR${name}OpsIncGen)
endfunction()

# kiln_add_doc(<td name without .td> <out> <gen-flag>): markdown docs into
# build/docs.
function(kiln_add_doc td_name out_name gen_flag)
  set(LLVM_TARGET_DEFINITIONS ${td_name}.td)
  mlir_tablegen(${out_name}.md ${gen_flag} ${ARGN})
  set(out ${CMAKE_BINARY_DIR}/docs/${out_name}.md)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_BINARY_DIR}/${out_name}.md ${out}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${out_name}.md)
  add_custom_target(kiln-doc-${out_name} DEPENDS ${out})
  if(NOT TARGET kiln-doc)
    add_custom_target(kiln-doc)
  endif()
  add_dependencies(kiln-doc kiln-doc-${out_name})
endfunction()

# kiln_add_library(<name> SRCS... [DEPENDS ...] [MLIR_LIBS ...] [LINK_LIBS ...])
# A static library of ours. MLIR_LIBS are MLIR components, satisfied by
# libMLIR.so; LINK_LIBS are our own libraries. Its objects (obj.<name>) also
# go into libKiln.so (compiler/API).
function(kiln_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    OBJECT DISABLE_INSTALL EXCLUDE_FROM_LIBMLIR
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
endfunction()
