#include "tests/support/test_pki.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace convcheck::test {
namespace {

struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct CertFree {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct BignumFree {
  void operator()(BIGNUM* bn) const { BN_free(bn); }
};
struct FileClose {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Cert = std::unique_ptr<X509, CertFree>;

constexpr long kDay = 24 * 60 * 60;

[[noreturn]] void fail(const std::string& step) {
  char reason[256] = "no OpenSSL error queued";
  if (unsigned long code = ERR_get_error()) ERR_error_string_n(code, reason, sizeof reason);
  ERR_clear_error();
  throw std::runtime_error("TestPki: " + step + ": " + reason);
}

Key generateKey(KeyKind kind) {
  EVP_PKEY* key = kind == KeyKind::Rsa2048 ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256");
  if (!key) fail("generating a key");
  return Key(key);
}

// What to put in one certificate.
struct CertSpec {
  std::string commonName;
  std::string subjectAltName;  // e.g. "IP:127.0.0.1,DNS:localhost"; empty = no SAN extension
  bool isCa = false;
  std::string extendedKeyUsage;   // "serverAuth", "clientAuth" or empty
  long notBeforeSeconds = -kDay;  // relative to now
  long notAfterSeconds = 30 * kDay;
};

CertSpec caSpec(const std::string& commonName) {
  CertSpec spec;
  spec.commonName = commonName;
  spec.isCa = true;
  spec.notAfterSeconds = 365 * kDay;
  return spec;
}

CertSpec leafSpec(const std::string& commonName, const std::string& subjectAltName,
                  const std::string& extendedKeyUsage) {
  CertSpec spec;
  spec.commonName = commonName;
  spec.subjectAltName = subjectAltName;
  spec.extendedKeyUsage = extendedKeyUsage;
  return spec;
}

void addExtension(X509* cert, X509V3_CTX* ctx, int nid, const std::string& value) {
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value.c_str());
  if (!ext) fail("building extension " + std::string(OBJ_nid2sn(nid)) + "=" + value);
  int added = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  if (!added) fail("adding extension " + std::string(OBJ_nid2sn(nid)));
}

void setRandomSerial(X509* cert) {
  std::unique_ptr<BIGNUM, BignumFree> serial(BN_new());
  if (!serial || !BN_rand(serial.get(), 120, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY))
    fail("drawing a serial number");
  if (!BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert))) fail("setting the serial");
}

// Issues a certificate for `subjectKey`, signed by issuerKey (self-signed when issuer is null).
Cert issue(const CertSpec& spec, EVP_PKEY* subjectKey, X509* issuer, EVP_PKEY* issuerKey) {
  Cert cert(X509_new());
  if (!cert) fail("allocating a certificate");
  X509* x = cert.get();
  if (!X509_set_version(x, 2)) fail("setting the version");
  setRandomSerial(x);
  if (!X509_gmtime_adj(X509_getm_notBefore(x), spec.notBeforeSeconds) ||
      !X509_gmtime_adj(X509_getm_notAfter(x), spec.notAfterSeconds))
    fail("setting the validity of " + spec.commonName);

  X509_NAME* name = X509_get_subject_name(x);
  auto addEntry = [&](const char* field, const std::string& value) {
    if (!X509_NAME_add_entry_by_txt(name, field, MBSTRING_ASC,
                                    reinterpret_cast<const unsigned char*>(value.c_str()), -1, -1,
                                    0))
      fail("setting " + std::string(field) + "=" + value);
  };
  addEntry("O", "convcheck tests");
  addEntry("CN", spec.commonName);
  if (!X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : name))
    fail("setting the issuer of " + spec.commonName);
  if (!X509_set_pubkey(x, subjectKey)) fail("setting the public key of " + spec.commonName);

  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer ? issuer : x, x, nullptr, nullptr, 0);
  if (spec.isCa) {
    addExtension(x, &ctx, NID_basic_constraints, "critical,CA:TRUE");
    addExtension(x, &ctx, NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
  } else {
    addExtension(x, &ctx, NID_basic_constraints, "critical,CA:FALSE");
    addExtension(x, &ctx, NID_key_usage, "critical,digitalSignature,keyEncipherment");
  }
  addExtension(x, &ctx, NID_subject_key_identifier, "hash");
  addExtension(x, &ctx, NID_authority_key_identifier, "keyid:always");
  if (!spec.extendedKeyUsage.empty())
    addExtension(x, &ctx, NID_ext_key_usage, spec.extendedKeyUsage);
  if (!spec.subjectAltName.empty())
    addExtension(x, &ctx, NID_subject_alt_name, spec.subjectAltName);

  if (!X509_sign(x, issuerKey, EVP_sha256())) fail("signing " + spec.commonName);
  return cert;
}

std::unique_ptr<std::FILE, FileClose> openForWrite(const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, FileClose> file(std::fopen(path.c_str(), "wb"));
  if (!file) throw std::runtime_error("TestPki: cannot write " + path.string());
  return file;
}

void writeCert(const std::filesystem::path& path, X509* cert) {
  auto file = openForWrite(path);
  if (!PEM_write_X509(file.get(), cert)) fail("writing " + path.string());
}

void writeKey(const std::filesystem::path& path, EVP_PKEY* key) {
  {
    auto file = openForWrite(path);
    if (!PEM_write_PrivateKey(file.get(), key, nullptr, nullptr, 0, nullptr, nullptr))
      fail("writing " + path.string());
  }
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string serverSubjectAltName(const TestPkiOptions& options) {
  if (options.server == ServerCertVariant::CnOnly) return {};
  if (options.server == ServerCertVariant::WrongSan) return "DNS:wrong.example.invalid";
  std::string san = "IP:127.0.0.1,DNS:localhost";
  for (const auto& name : options.extraDnsNames) san += ",DNS:" + name;
  return san;
}

}  // namespace

std::filesystem::path makeTempDir(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      (std::filesystem::path(base && *base ? base : "/tmp") / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data()))
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  return pattern;
}

TestPki::TestPki(TestPkiOptions options) : options_(std::move(options)) {
  dir_ = makeTempDir("convcheck-pki");
  try {
    Key caKey = generateKey(options_.keyKind);
    Cert ca = issue(caSpec("convcheck test CA"), caKey.get(), nullptr, caKey.get());
    writeCert(caFile(), ca.get());
    writeKey(caKeyFile(), caKey.get());

    Key serverKey = generateKey(options_.keyKind);
    CertSpec server = leafSpec(
        options_.server == ServerCertVariant::WrongSan ? "wrong.example.invalid" : "127.0.0.1",
        serverSubjectAltName(options_), "serverAuth");
    if (options_.server == ServerCertVariant::Expired) {
      server.notBeforeSeconds = -30 * kDay;
      server.notAfterSeconds = -kDay;
    }
    Cert serverCert;
    if (options_.server == ServerCertVariant::UnknownCa) {
      Key otherKey = generateKey(options_.keyKind);
      Cert other = issue(caSpec("convcheck unknown CA"), otherKey.get(), nullptr, otherKey.get());
      writeCert(unknownCaFile(), other.get());
      serverCert = issue(server, serverKey.get(), other.get(), otherKey.get());
    } else {
      serverCert = issue(server, serverKey.get(), ca.get(), caKey.get());
    }
    writeCert(serverCertFile(), serverCert.get());
    writeKey(serverKeyFile(), serverKey.get());

    Key clientKey = generateKey(options_.keyKind);
    Cert client = issue(leafSpec("convcheck-client", "", "clientAuth"), clientKey.get(), ca.get(),
                        caKey.get());
    writeCert(clientCertFile(), client.get());
    writeKey(clientKeyFile(), clientKey.get());

    caPem_ = readText(caFile());
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    throw;
  }
}

TestPki::~TestPki() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string TestPki::caFile() const { return (dir_ / "ca.pem").string(); }
std::string TestPki::caKeyFile() const { return (dir_ / "ca-key.pem").string(); }
std::string TestPki::serverCertFile() const { return (dir_ / "server.pem").string(); }
std::string TestPki::serverKeyFile() const { return (dir_ / "server-key.pem").string(); }
std::string TestPki::clientCertFile() const { return (dir_ / "client.pem").string(); }
std::string TestPki::clientKeyFile() const { return (dir_ / "client-key.pem").string(); }
std::string TestPki::unknownCaFile() const { return (dir_ / "unknown-ca.pem").string(); }

}  // namespace convcheck::test
