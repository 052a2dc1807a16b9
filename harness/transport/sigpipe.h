// Makes writes to a connection the peer already closed fail with EPIPE instead of killing the
// process with SIGPIPE. Used by the HTTPS client and the TLS inspection (OpenSSL writes with
// plain write(), which libcurl's CURLOPT_NOSIGNAL leaves unprotected).
#pragma once

namespace convcheck {

// Sets SIGPIPE to SIG_IGN for the whole process, once; later calls do nothing. A hostile webhook
// that resets the connection while convcheck sends must be a finding, not a crash.
void ignoreSigpipe();

}  // namespace convcheck
