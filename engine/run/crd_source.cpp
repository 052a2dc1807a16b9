#include "engine/run/crd_source.h"

#include "harness/cluster/cluster_reads.h"

namespace convcheck {

LoadResult loadCrdSource(const std::string& input, std::istream& stdinStream,
                         const ClusterAccess& cluster) {
  const std::string name = clusterCrdName(input);
  if (name.empty()) return loadCrdInput(input, stdinStream);
  RawGet got = readClusterCrd(cluster, name);
  if (gotBody(got)) return loadCrdText(std::get<0>(got), input);
  LoadResult failed;
  LoadError error;
  error.where.file = input;
  error.where.document = 0;
  error.message = std::get<1>(got);
  failed.errors.push_back(error);
  return failed;
}

}  // namespace convcheck
