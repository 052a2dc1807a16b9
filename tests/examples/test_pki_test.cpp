// TestPki: the certificates it makes verify (or fail to) exactly as each variant promises.
#include "tests/support/test_pki.h"

#include <memory>

#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace convcheck::test {
namespace {

struct X509Deleter {
  void operator()(X509* cert) const { X509_free(cert); }
};
using Cert = std::unique_ptr<X509, X509Deleter>;

Cert readCert(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) return Cert(nullptr);
  return Cert(PEM_read_X509(file.get(), nullptr, nullptr, nullptr));
}

// X509_V_OK when `leaf` chains to `caFile` (with purpose `purpose`), else the error code.
int verify(const std::string& leafFile, const std::string& caFile,
           int purpose = X509_PURPOSE_SSL_SERVER) {
  Cert leaf = readCert(leafFile);
  Cert ca = readCert(caFile);
  if (!leaf || !ca) return -1;
  X509_STORE* store = X509_STORE_new();
  X509_STORE_add_cert(store, ca.get());
  X509_STORE_CTX* ctx = X509_STORE_CTX_new();
  X509_STORE_CTX_init(ctx, store, leaf.get(), nullptr);
  X509_STORE_CTX_set_purpose(ctx, purpose);
  X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(ctx), X509_V_FLAG_X509_STRICT);
  int result = X509_verify_cert(ctx) == 1 ? X509_V_OK : X509_STORE_CTX_get_error(ctx);
  X509_STORE_CTX_free(ctx);
  X509_STORE_free(store);
  return result;
}

bool matchesIp(const std::string& certFile, const char* ip) {
  Cert cert = readCert(certFile);
  return cert && X509_check_ip_asc(cert.get(), ip, 0) == 1;
}

bool hasSubjectAltName(const std::string& certFile) {
  Cert cert = readCert(certFile);
  return cert && X509_get_ext_by_NID(cert.get(), NID_subject_alt_name, -1) >= 0;
}

TEST(TestPki, ValidServerCertificateChainsToTheCaAndNames127001AndLocalhost) {
  TestPki pki;
  EXPECT_EQ(verify(pki.serverCertFile(), pki.caFile()), X509_V_OK);
  EXPECT_TRUE(matchesIp(pki.serverCertFile(), "127.0.0.1"));
  Cert cert = readCert(pki.serverCertFile());
  EXPECT_EQ(X509_check_host(cert.get(), "localhost", 0, 0, nullptr), 1);
}

TEST(TestPki, ClientCertificateIsForClientAuthAndChainsToTheCa) {
  TestPki pki;
  EXPECT_EQ(verify(pki.clientCertFile(), pki.caFile(), X509_PURPOSE_SSL_CLIENT), X509_V_OK);
  EXPECT_NE(verify(pki.clientCertFile(), pki.caFile(), X509_PURPOSE_SSL_SERVER), X509_V_OK);
}

TEST(TestPki, CaPemIsTheTextOfCaFile) {
  TestPki pki;
  EXPECT_EQ(pki.caPem().rfind("-----BEGIN CERTIFICATE-----", 0), 0u);
  Cert fromFile = readCert(pki.caFile());
  std::unique_ptr<BIO, int (*)(BIO*)> bio(BIO_new_mem_buf(pki.caPem().data(), -1), BIO_free);
  Cert fromText(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  ASSERT_TRUE(fromFile && fromText);
  EXPECT_EQ(X509_cmp(fromFile.get(), fromText.get()), 0);
}

TEST(TestPki, ExtraDnsNamesAreAddedToTheServerSan) {
  TestPki pki({.extraDnsNames = {"webhook.ns.svc"}});
  Cert cert = readCert(pki.serverCertFile());
  EXPECT_EQ(X509_check_host(cert.get(), "webhook.ns.svc", 0, 0, nullptr), 1);
}

TEST(TestPki, WrongSanVariantDoesNotName127001) {
  TestPki pki({.server = ServerCertVariant::WrongSan});
  EXPECT_EQ(verify(pki.serverCertFile(), pki.caFile()), X509_V_OK);
  EXPECT_TRUE(hasSubjectAltName(pki.serverCertFile()));
  EXPECT_FALSE(matchesIp(pki.serverCertFile(), "127.0.0.1"));
}

TEST(TestPki, CnOnlyVariantHasNoSubjectAltName) {
  TestPki pki({.server = ServerCertVariant::CnOnly});
  EXPECT_EQ(verify(pki.serverCertFile(), pki.caFile()), X509_V_OK);
  EXPECT_FALSE(hasSubjectAltName(pki.serverCertFile()));
  Cert cert = readCert(pki.serverCertFile());
  char cn[64] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(cert.get()), NID_commonName, cn, sizeof cn);
  EXPECT_STREQ(cn, "127.0.0.1");
}

TEST(TestPki, ExpiredVariantFailsVerificationAsExpired) {
  TestPki pki({.server = ServerCertVariant::Expired});
  EXPECT_EQ(verify(pki.serverCertFile(), pki.caFile()), X509_V_ERR_CERT_HAS_EXPIRED);
  EXPECT_TRUE(matchesIp(pki.serverCertFile(), "127.0.0.1"));
}

TEST(TestPki, UnknownCaVariantChainsOnlyToTheOtherCa) {
  TestPki pki({.server = ServerCertVariant::UnknownCa});
  EXPECT_EQ(verify(pki.serverCertFile(), pki.caFile()),
            X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY);
  EXPECT_EQ(verify(pki.serverCertFile(), pki.unknownCaFile()), X509_V_OK);
}

TEST(TestPki, RsaKeysCanBeChosen) {
  TestPki pki({.keyKind = KeyKind::Rsa2048});
  Cert cert = readCert(pki.serverCertFile());
  EVP_PKEY* key = X509_get0_pubkey(cert.get());
  EXPECT_EQ(EVP_PKEY_get_base_id(key), EVP_PKEY_RSA);
  EXPECT_EQ(EVP_PKEY_get_bits(key), 2048);
  EXPECT_EQ(verify(pki.serverCertFile(), pki.caFile()), X509_V_OK);
}

TEST(TestPki, RemovesItsDirectoryOnDestruction) {
  std::filesystem::path dir;
  {
    TestPki pki;
    dir = pki.dir();
    EXPECT_TRUE(std::filesystem::exists(pki.serverKeyFile()));
  }
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(TestPki, PrivateKeysAreReadableOnlyByTheOwner) {
  TestPki pki;
  auto perms = std::filesystem::status(pki.serverKeyFile()).permissions();
  EXPECT_EQ(perms & (std::filesystem::perms::group_all | std::filesystem::perms::others_all),
            std::filesystem::perms::none);
}

}  // namespace
}  // namespace convcheck::test
