# Build-time step (cmake -P): writes convcheck(1) from the binary's --version and --help texts
# (the top level and every subcommand listed there), then OUTPUT.gz when GZIP is given.
# Variables: CONVCHECK (the binary), OUTPUT (the man page), GZIP (gzip, or empty).

function(help_text out)
  execute_process(COMMAND "${CONVCHECK}" ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "convcheck ${ARGN} failed (${status})")
  endif()
  # roff: a backslash is \e; a line starting with . or ' would be a request.
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${CONVCHECK}" --version OUTPUT_VARIABLE version
                OUTPUT_STRIP_TRAILING_WHITESPACE)
help_text(top --help)
# The subcommands are the indented lines after "Subcommands:" in the top-level help.
set(commands "")
string(REGEX MATCH "Subcommands:\n(.*)" listing "${top}")
string(REPLACE "\n" ";" lines "${CMAKE_MATCH_1}")
foreach(line IN LISTS lines)
  if(line MATCHES "^  ([a-z][a-z-]*) ")
    list(APPEND commands "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(commands STREQUAL "")
  message(FATAL_ERROR "no subcommands found in convcheck --help")
endif()

set(page ".TH CONVCHECK 1 \"\" \"${version}\" \"User Commands\"
.SH NAME
convcheck \\- conformance and fuzz testing of Kubernetes CRD conversion webhooks
.SH SYNOPSIS
.B convcheck
.I COMMAND
[\\fIOPTIONS\\fR]
.SH DESCRIPTION
convcheck reads a CustomResourceDefinition, generates valid objects for every version from the
CRD's schemas, sends ConversionReviews to the conversion webhook over HTTPS as kube-apiserver does,
and checks each property (round trips, metadata, order, schema validity and more).
.PP
.nf
${top}.fi
.SH COMMANDS
")
foreach(command IN LISTS commands)
  help_text(text ${command} --help)
  string(APPEND page ".SS convcheck ${command}\n.nf\n${text}.fi\n")
endforeach()
string(APPEND page ".SH EXIT STATUS
.TP
.B 0
every property held
.TP
.B 1
a property failed
.TP
.B 2
usage or input error (bad flags, unreadable or invalid CRD)
.TP
.B 3
the webhook could not be tested at all (unreachable, TLS failure before any conversion)
.SH SEE ALSO
/usr/share/doc/convcheck/README.md, /usr/share/doc/convcheck/install.md, /usr/share/doc/convcheck/reference.md
")
file(WRITE "${OUTPUT}" "${page}")
if(GZIP)
  # -n: no name or time stamp in the header, so the same page gives the same bytes.
  execute_process(COMMAND "${GZIP}" -9nc "${OUTPUT}" OUTPUT_FILE "${OUTPUT}.gz"
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${OUTPUT} failed")
  endif()
endif()
