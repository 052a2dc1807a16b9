#include "tests/harness/transport/test_pki.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace convcheck::testing {
namespace {

constexpr const char* kConfig = R"([ req ]
distinguished_name = dn
[ dn ]
[ ca_ext ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ ca ]
default_ca = testca
[ testca ]
database = db/index.txt
new_certs_dir = db
serial = db/serial
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[ anything ]
commonName = supplied
)";

constexpr const char* kServerSans =
    "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:webhook.convcheck.svc\n";

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void TransportPki::run(const std::string& command) const {
  const std::string full = "cd '" + dir + "' && " + command + " >openssl.log 2>&1";
  if (std::system(full.c_str()) != 0) {
    throw std::runtime_error("openssl failed: " + command + "\n" + readFile(dir + "/openssl.log"));
  }
}

void TransportPki::makeCa(const std::string& name, const std::string& cn) const {
  run("openssl req -x509 -config pki.cnf -extensions ca_ext -newkey ec -pkeyopt "
      "ec_paramgen_curve:prime256v1 -nodes -keyout " +
      name + ".key -out " + name + ".crt -days 36500 -subj /CN=" + cn);
}

CertKey TransportPki::issue(const std::string& name, const std::string& cn,
                            const std::string& extensions, const std::string& caName,
                            const std::string& start, const std::string& end,
                            const std::string& digest) const {
  writeFile(dir + "/" + name + ".ext", "basicConstraints=CA:FALSE\n" + extensions);
  run("openssl req -new -config pki.cnf -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
      "-keyout " +
      name + ".key -out " + name + ".csr -subj /CN=" + cn);
  run("openssl ca -batch -config pki.cnf -cert " + caName + ".crt -keyfile " + caName +
      ".key -in " + name + ".csr -out " + name + ".crt -startdate " + start + " -enddate " + end +
      " -extfile " + name + ".ext -create_serial -notext -md " + digest);
  return {dir + "/" + name + ".crt", dir + "/" + name + ".key"};
}

TransportPki::TransportPki() {
  std::string pattern = (std::filesystem::temp_directory_path() / "convcheck-pki-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir = pattern;
  std::filesystem::create_directory(dir + "/db");
  writeFile(dir + "/db/index.txt", "");
  writeFile(dir + "/pki.cnf", kConfig);

  makeCa("ca", "convcheck-test-ca");
  makeCa("other-ca", "convcheck-untrusted-ca");
  caFile = dir + "/ca.crt";
  caPem = readFile(caFile);

  const std::string from = "20200101000000Z";
  const std::string to = "20990101000000Z";
  const std::string serverExt = std::string("extendedKeyUsage=serverAuth\n") + kServerSans;
  server = issue("server", "127.0.0.1", serverExt, "ca", from, to);
  cnOnly = issue("cn-only", "127.0.0.1", "extendedKeyUsage=serverAuth\n", "ca", from, to);
  expired = issue("expired", "127.0.0.1", serverExt, "ca", from, "20200102000000Z");
  notYetValid =
      issue("not-yet-valid", "127.0.0.1", serverExt, "ca", "20990101000000Z", "20991231000000Z");
  unknownCa = issue("unknown-ca", "127.0.0.1", serverExt, "other-ca", from, to);
  sha1Signed = issue("sha1", "127.0.0.1", serverExt, "ca", from, to, "sha1");
  clientAuthOnly =
      issue("client-auth-only", "127.0.0.1",
            std::string("extendedKeyUsage=clientAuth\n") + kServerSans, "ca", from, to);
  client = issue("client", "convcheck-client", "extendedKeyUsage=clientAuth\n", "ca", from, to);
}

TransportPki::~TransportPki() {
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

const TransportPki& TransportPki::instance() {
  static const TransportPki pki;
  return pki;
}

}  // namespace convcheck::testing
