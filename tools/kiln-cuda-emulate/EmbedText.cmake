# cmake -DINPUT=file -DOUTPUT=file.inc -DNAME=kName -P EmbedText.cmake
# Writes `constexpr const char NAME[] = R"...(<file>)...";` so that the tool
# carries CudaHostShim.h and needs no source tree at run time.
file(READ "${INPUT}" text)
file(WRITE "${OUTPUT}.tmp"
  "constexpr const char ${NAME}[] = R\"kilnshim(${text})kilnshim\";\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
