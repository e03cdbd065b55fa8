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
