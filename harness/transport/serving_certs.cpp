#include "harness/transport/serving_certs.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

namespace convcheck {
namespace {

namespace fs = std::filesystem;

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using Bignum = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;

constexpr long kDay = 24 * 60 * 60;

// Thrown inside this file only, turned into the error value at its edge.
struct OpensslError {
  std::string message;
};

[[noreturn]] void fail(const std::string& step) {
  char reason[256] = "no OpenSSL error queued";
  if (unsigned long code = ERR_get_error()) ERR_error_string_n(code, reason, sizeof reason);
  ERR_clear_error();
  throw OpensslError{step + ": " + reason};
}

Key newKey() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  if (!key) fail("generating a P-256 key");
  return Key(key);
}

void addExtension(X509* cert, X509V3_CTX* ctx, int nid, const std::string& value) {
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value.c_str());
  if (!ext) fail("building extension " + std::string(OBJ_nid2sn(nid)) + "=" + value);
  const int added = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  if (!added) fail("adding extension " + std::string(OBJ_nid2sn(nid)));
}

struct Spec {
  std::string commonName;
  std::string subjectAltName;  // "DNS:a,IP:b"; empty for the CA
  bool isCa = false;
  int days = 365;
};

// A certificate for `subjectKey`, signed by issuerKey (self-signed when issuer is null).
Cert issue(const Spec& spec, EVP_PKEY* subjectKey, X509* issuer, EVP_PKEY* issuerKey) {
  Cert cert(X509_new());
  if (!cert) fail("allocating a certificate");
  X509* x = cert.get();
  if (!X509_set_version(x, 2)) fail("setting the version");
  Bignum serial(BN_new());
  if (!serial || !BN_rand(serial.get(), 120, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) ||
      !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(x)))
    fail("setting a serial number");
  // Valid from an hour ago: clocks of the machines that check it may lag.
  if (!X509_gmtime_adj(X509_getm_notBefore(x), -3600) ||
      !X509_gmtime_adj(X509_getm_notAfter(x), spec.days * kDay))
    fail("setting the validity of " + spec.commonName);
  X509_NAME* name = X509_get_subject_name(x);
  if (!X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                  reinterpret_cast<const unsigned char*>(spec.commonName.c_str()),
                                  -1, -1, 0))
    fail("setting CN=" + spec.commonName);
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
    addExtension(x, &ctx, NID_ext_key_usage, "serverAuth");
    addExtension(x, &ctx, NID_subject_alt_name, spec.subjectAltName);
  }
  addExtension(x, &ctx, NID_subject_key_identifier, "hash");
  if (issuer) addExtension(x, &ctx, NID_authority_key_identifier, "keyid:always");
  if (!X509_sign(x, issuerKey, EVP_sha256())) fail("signing " + spec.commonName);
  return cert;
}

std::string bioText(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string certPem(X509* cert) {
  Bio bio(BIO_new(BIO_s_mem()));
  if (!bio || !PEM_write_bio_X509(bio.get(), cert)) fail("encoding a certificate as PEM");
  return bioText(bio.get());
}

std::string keyPem(EVP_PKEY* key) {
  Bio bio(BIO_new(BIO_s_mem()));
  if (!bio || !PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr))
    fail("encoding a private key as PEM");
  return bioText(bio.get());
}

}  // namespace

std::vector<std::string> serviceDnsNames(const std::string& service, const std::string& ns) {
  return {service + "." + ns + ".svc", service + "." + ns + ".svc.cluster.local", service,
          service + "." + ns, "localhost"};
}

std::variant<ServingCerts, std::string> makeServingCerts(const ServingCertsRequest& request) {
  if (request.dnsNames.empty() && request.ipAddresses.empty())
    return std::string("no name for the serving certificate");
  if (request.days <= 0) return std::string("the validity must be at least one day");
  std::string san;
  for (const auto& dns : request.dnsNames) san += (san.empty() ? "DNS:" : ",DNS:") + dns;
  for (const auto& ip : request.ipAddresses) san += (san.empty() ? "IP:" : ",IP:") + ip;
  try {
    Key caKey = newKey();
    Cert ca =
        issue({"convcheck webhook CA", "", true, request.days}, caKey.get(), nullptr, caKey.get());
    Key serverKey = newKey();
    const std::string commonName =
        request.dnsNames.empty() ? request.ipAddresses.front() : request.dnsNames.front();
    Cert server =
        issue({commonName, san, false, request.days}, serverKey.get(), ca.get(), caKey.get());
    return ServingCerts{certPem(ca.get()), keyPem(caKey.get()), certPem(server.get()),
                        keyPem(serverKey.get())};
  } catch (const OpensslError& e) {
    return e.message;
  }
}

std::string writeServingCerts(const ServingCerts& certs, const std::string& dirText) {
  std::error_code ec;
  const fs::path dir(dirText);
  fs::create_directories(dir, ec);
  if (ec) return "cannot create " + dir.string() + ": " + ec.message();
  const auto write = [&](const char* name, const std::string& text, bool secret) -> std::string {
    const fs::path path = dir / name;
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      if (secret)  // readable by the owner only before the key is in it
        fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write, ec);
      out << text;
      if (!out.flush()) return "cannot write " + path.string();
    }
    return "";
  };
  for (const auto& error :
       {write(kCaCertFile, certs.caCertPem, false), write(kCaKeyFile, certs.caKeyPem, true),
        write(kServerCertFile, certs.certPem, false), write(kServerKeyFile, certs.keyPem, true)})
    if (!error.empty()) return error;
  return "";
}

std::string caBundleOf(const ServingCerts& certs) {
  const std::string& pem = certs.caCertPem;
  std::string out(4 * ((pem.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(pem.data()),
                                static_cast<int>(pem.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

}  // namespace convcheck
