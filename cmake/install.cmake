# What `cmake --install` puts beside bin/tlscope, and the Debian package that
# `make package` builds from the same install rules (docs/install.md).
include(GNUInstallDirs)

# The binary's modules (cmake/layers.cmake, base/module.h), where the
# binary looks for them: PREFIX/lib/tlscope beside PREFIX/bin.
get_property(_modules GLOBAL PROPERTY TLSCOPE_MODULES)
install(TARGETS ${_modules} LIBRARY DESTINATION lib/tlscope)

# The man page and the bash and zsh completions are written from the built
# binary's own --help (scripts/cli_docs.py) each time it is linked, so they
# cannot drift from it. Part of `all`: build before installing.
find_package(Python3 3.9 REQUIRED COMPONENTS Interpreter)
set(_man_page ${PROJECT_BINARY_DIR}/share/man/man1/tlscope.1)
set(_bash_completion ${PROJECT_BINARY_DIR}/share/bash-completion/completions/tlscope)
set(_zsh_completion ${PROJECT_BINARY_DIR}/share/zsh/site-functions/_tlscope)
# The entry point and every module of the package it imports: a change to
# any of them rewrites the three files. Listed, not globbed, so a new module
# is added here too.
set(_cli_docs_scripts
    ${PROJECT_SOURCE_DIR}/scripts/cli_docs.py
    ${PROJECT_SOURCE_DIR}/scripts/clidocs/__init__.py
    ${PROJECT_SOURCE_DIR}/scripts/clidocs/helptext.py
    ${PROJECT_SOURCE_DIR}/scripts/clidocs/man.py
    ${PROJECT_SOURCE_DIR}/scripts/clidocs/bash.py
    ${PROJECT_SOURCE_DIR}/scripts/clidocs/zsh.py)
# -B: importing the package would otherwise leave __pycache__ in the sources.
add_custom_command(
  OUTPUT ${_man_page} ${_bash_completion} ${_zsh_completion}
  COMMAND Python3::Interpreter -B ${PROJECT_SOURCE_DIR}/scripts/cli_docs.py
          --tlscope $<TARGET_FILE:tlscope> --out ${PROJECT_BINARY_DIR}
  DEPENDS tlscope ${_cli_docs_scripts}
  COMMENT "Writing tlscope's man page and shell completions from its --help"
  VERBATIM)
add_custom_target(tlscope_cli_docs ALL DEPENDS ${_man_page} ${_bash_completion} ${_zsh_completion})

install(FILES ${_man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${_bash_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
# zsh's own default; Debian's zsh searches it under /usr/local only, so the
# .deb moves the file to vendor-completions (cmake/deb_layout.cmake).
install(FILES ${_zsh_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)

# Installing and packaging take what was built. Otherwise cpack would first
# build `all`, which with TLSCOPE_TESTS is the whole test suite (minutes on
# 2 cores), when the package needs only tlscope and tlscope_cli_docs.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

# The .deb: `make package`, or `cpack -G DEB` in the build folder.
set(TLSCOPE_PACKAGE_MAINTAINER
    "tlscope maintainers <maintainers@users.noreply.a-seed-7574e5f3.example>"
    CACHE STRING "The Maintainer field of the Debian package")
set(TLSCOPE_HOMEPAGE "" CACHE STRING "The project's web page, for the package's Homepage field")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tlscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${TLSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
# The synopsis is the summary above; this, the extended description, in
# lines as they appear in the control file.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "tlscope turns the structured trace that PyTorch writes with TORCH_TRACE\n"
  "into a compilation report: which code was compiled, graph breaks and\n"
  "restarts, recompilations, failures, compile times, and every FX graph,\n"
  "guard list and generated kernel. A drop-in for tlparse (same command line\n"
  "and output layout), with a compile doctor (tlscope summary, and tlscope\n"
  "check for CI), diffs of two logs, redacted bug bundles and multi-rank\n"
  "reports.")
if(TLSCOPE_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${TLSCOPE_HOMEPAGE}")
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends from the shared libraries tlscope links (dpkg-shlibdeps).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # tlscope_<version>_<arch>.deb
set(CPACK_STRIP_FILES ON)
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/deb_layout.cmake)
include(CPack)
