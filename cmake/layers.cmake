# Layering checked by the compiler: each library's include path holds only
# its own headers (as links, under their usual "layer/file.h" names), and it
# sees another layer's headers only by linking that layer. A header included
# against the data flow (report from trace, report from the doctor's
# commands) is then "file not found", not just an unwanted dependency.
#
#   tlscope_layer(<target> <folder under src/> [<subfolder of it> ...])
function(tlscope_layer target folder)
  set(root ${PROJECT_BINARY_DIR}/include/${target})
  file(REMOVE_RECURSE ${root})
  foreach(dir IN ITEMS ${folder} ${ARGN})
    if(NOT dir STREQUAL folder)
      set(dir ${folder}/${dir})
    endif()
    file(MAKE_DIRECTORY ${root}/${dir})
    file(GLOB headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.h
         ${PROJECT_SOURCE_DIR}/src/${dir}/*.def)
    foreach(h IN LISTS headers)
      get_filename_component(name ${h} NAME)
      file(CREATE_LINK ${h} ${root}/${dir}/${name} SYMBOLIC)
    endforeach()
  endforeach()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE ${root})
  else()
    target_include_directories(${target} PUBLIC ${root})
  endif()
endfunction()

# A module of the binary (base/module.h): built beside it as <file>.so, only
# its entry point exported, built with the binary (src/cli) and installed in
# lib/tlscope (cmake/install.cmake).
#
#   tlscope_module(<target> <file name without .so>)
function(tlscope_module target file)
  set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME ${file}
                        LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
                        CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
                        POSITION_INDEPENDENT_CODE ON)
  # A missing symbol is a link error, not a failure to load (the sanitizers'
  # runtime is the binary's).
  if(NOT TLSCOPE_SANITIZE AND NOT TLSCOPE_FUZZ)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  set_property(GLOBAL APPEND PROPERTY TLSCOPE_MODULES ${target})
endfunction()
