# cmake -DINPUT=file -DOUTPUT=file.cpp -DNAME=function -P embed_file.cmake: writes NAME()
# (default overlay_page) returning the file's bytes (as a hex array, so any byte survives).
if(NOT NAME)
  set(NAME overlay_page)
endif()
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE ${OUTPUT}
  "// Generated from ${INPUT} by embed_file.cmake; do not edit.\n"
  "#include <string_view>\n"
  "namespace eboard::daemon {\n"
  "namespace { constexpr char kBytes[] = {${bytes} '\\0'}; }\n"
  "std::string_view ${NAME}() { return {kBytes, ${size}}; }\n"
  "}  // namespace eboard::daemon\n")
