# What `cmake --install` puts beside the programs (each program installs itself through
# eboard_add_program, cmake/EboardProgram.cmake): the service, the udev rules, the example
# configuration and the docs. tools/package.sh turns such an install into the .deb.
# Included last from the top-level CMakeLists.txt, once every program is defined.
include_guard(GLOBAL)
include(GNUInstallDirs)

# Under the prefix: /usr/lib/systemd/system and /usr/lib/udev/rules.d for the package
# (systemd and udev read both /lib and /usr/lib; Debian 12 has merged /usr). The
# configuration is always /etc/eboardd, where the unit looks for it.
if(NOT EBOARD_ENGINE_ONLY)
  install(FILES ${CMAKE_SOURCE_DIR}/systemd/eboardd.service DESTINATION lib/systemd/system)
  install(FILES ${CMAKE_SOURCE_DIR}/systemd/61-eboardd.rules DESTINATION lib/udev/rules.d)
  install(FILES ${CMAKE_SOURCE_DIR}/systemd/eboardd.conf DESTINATION /etc/eboardd)
  install(FILES ${CMAKE_SOURCE_DIR}/systemd/eboardd.service.d/internet.conf
          DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
endif()
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

eboard_check_programs()
