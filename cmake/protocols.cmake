# gridsync_protocol_names(OUT LIST): the names of the entries of one X-macro list of
# include/gridsync/protocols.h (GS_PROTOCOLS_SHARED, GS_PROTOCOLS_CUDA, ...), in order:
# what the build generates per protocol (CUDA's kernels, OpenCL's embedded files) comes
# from the same list as the code.
function(gridsync_protocol_names out list)
  file(READ ${PROJECT_SOURCE_DIR}/include/gridsync/protocols.h text)
  string(REGEX MATCH "#define ${list}\\(X\\)[^#]*" body "${text}")
  string(REGEX MATCHALL "X\\([A-Z_]+, [a-z_]+," entries "${body}")
  set(names "")
  foreach(e IN LISTS entries)
    string(REGEX REPLACE "X\\([A-Z_]+, ([a-z_]+)," "\\1" n "${e}")
    list(APPEND names ${n})
  endforeach()
  if(NOT names)
    message(FATAL_ERROR "gridsync: no entries of ${list} in include/gridsync/protocols.h")
  endif()
  set(${out} ${names} PARENT_SCOPE)
endfunction()
