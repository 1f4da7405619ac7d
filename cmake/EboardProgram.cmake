# eboard_add_program(NAME SUMMARY "one line" SOURCES file... [LIBS target...]
#                    [BASH_COMPLETION file])
#
# One installed program: the executable, its install rule, its manual page (help2man
# runs `NAME --help` and `NAME --version` after each build, so the page follows the
# program), and its bash completion. A completion file is installed when the call names
# one, or when the program's folder holds exactly one file named `NAME.bash-completion`,
# `*.bash` or `completion.bash`.
#
# Every program must answer `--version` with "NAME VERSION" (eboard/version.h) and `--help`
# with its usage on stdout. The package (cmake/EboardPackaging.cmake) ships exactly the
# programs added here: an executable named eboardd or eboard-* made with plain
# add_executable() stops the configure step (eboard_check_programs below).
include_guard(GLOBAL)
include(GNUInstallDirs)

# eboard/version.h: the project's version for every program's --version.
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.h.in
               ${CMAKE_BINARY_DIR}/generated/eboard/version.h @ONLY)
add_library(eboard_version INTERFACE)
target_include_directories(eboard_version INTERFACE ${CMAKE_BINARY_DIR}/generated)

find_program(EBOARD_HELP2MAN help2man)
if(NOT EBOARD_HELP2MAN)
  message(WARNING "help2man not found: no manual pages (tools/install-deps.sh installs it)")
endif()
set(EBOARD_MAN_DIR ${CMAKE_BINARY_DIR}/man)
# `eboard_programs` builds every program and its manual page and nothing else (the
# package needs no test or benchmark).
add_custom_target(eboard_programs)

function(eboard_add_program name)
  cmake_parse_arguments(ARG "" "SUMMARY;BASH_COMPLETION" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_SUMMARY OR NOT ARG_SOURCES)
    message(FATAL_ERROR "eboard_add_program(${name}): SUMMARY and SOURCES are required")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} eboard_version)
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set_property(GLOBAL APPEND PROPERTY EBOARD_PROGRAMS ${name})
  add_dependencies(eboard_programs ${name})
  _eboard_manual_page(${name} "${ARG_SUMMARY}")
  _eboard_bash_completion(${name} "${ARG_BASH_COMPLETION}")
endfunction()

# build/man/NAME.1.gz from the built program. A cross build runs the program through
# CMAKE_CROSSCOMPILING_EMULATOR (help2man passes its command line to the shell).
function(_eboard_manual_page name summary)
  if(NOT EBOARD_HELP2MAN)
    return()
  endif()
  set(page ${EBOARD_MAN_DIR}/${name}.1)
  set(command "$<TARGET_FILE:${name}>")
  if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " emulator)
    set(command "${emulator} ${command}")
  endif()
  add_custom_command(
    OUTPUT ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${EBOARD_MAN_DIR}
    COMMAND ${EBOARD_HELP2MAN} --no-info --section=1 --name=${summary} --output=${page}
            ${command}
    COMMAND gzip -9nf ${page}
    DEPENDS ${name}
    COMMENT "Manual page for ${name}"
    VERBATIM)
  add_custom_target(${name}-manpage ALL DEPENDS ${page}.gz)
  add_dependencies(eboard_programs ${name}-manpage)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()

function(_eboard_bash_completion name file)
  if(NOT file)
    file(GLOB found ${CMAKE_CURRENT_SOURCE_DIR}/${name}.bash-completion
         ${CMAKE_CURRENT_SOURCE_DIR}/*.bash ${CMAKE_CURRENT_SOURCE_DIR}/completion.bash)
    list(REMOVE_DUPLICATES found)
    list(LENGTH found count)
    if(count GREATER 1)
      message(FATAL_ERROR "${name}: more than one bash completion file (${found}); "
                          "name one with BASH_COMPLETION")
    endif()
    set(file "${found}")
  endif()
  if(file)
    install(FILES ${file} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
            RENAME ${name})
  endif()
endfunction()

# Called once every folder is read: an executable that looks like one of our programs but
# did not come through eboard_add_program would be missing from the package. Writes the
# list of programs to build/programs.txt (one a line) for the package checks.
function(eboard_check_programs)
  get_property(programs GLOBAL PROPERTY EBOARD_PROGRAMS)
  list(SORT programs)
  list(JOIN programs "\n" lines)
  file(WRITE ${CMAKE_BINARY_DIR}/programs.txt "${lines}\n")
  _eboard_executables(${CMAKE_SOURCE_DIR} executables)
  foreach(target ${executables})
    if(target MATCHES "^eboard(d|-.+)$" AND NOT target IN_LIST programs)
      message(FATAL_ERROR "${target} is an add_executable(): use eboard_add_program() "
                          "(cmake/EboardProgram.cmake) so that it is installed, packaged "
                          "and gets a manual page")
    endif()
  endforeach()
endfunction()

function(_eboard_executables dir out)
  set(result)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      list(APPEND result ${target})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir ${subdirs})
    _eboard_executables(${subdir} found)
    list(APPEND result ${found})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
