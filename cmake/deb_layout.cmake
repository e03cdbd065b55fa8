# CPack runs this (CPACK_PRE_BUILD_SCRIPTS, cmake/install.cmake) on the files
# it has installed for a package, before packing them: the .deb gets
# Debian's places and forms for what `cmake --install` puts elsewhere.
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
set(_root "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")

# Debian's zsh looks for packaged completions in /usr/share/zsh/vendor-completions;
# share/zsh/site-functions is on its search path under /usr/local only.
file(RENAME "${_root}/share/zsh/site-functions" "${_root}/share/zsh/vendor-completions")

# Debian policy 12.1: man pages compressed with `gzip -9n`.
execute_process(COMMAND gzip -9n "${_root}/share/man/man1/tlscope.1" COMMAND_ERROR_IS_FATAL ANY)
