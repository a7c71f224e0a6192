//===- RaplEnergyTest.cpp - Package energy from a fake powercap tree ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/RaplEnergy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

using namespace kiln::rt::serving;

namespace {

struct FakePowercap {
  FakePowercap() {
    char pattern[] = "/tmp/kiln-powercap-XXXXXX";
    root = mkdtemp(pattern);
  }
  ~FakePowercap() { std::system(("rm -rf '" + root + "'").c_str()); }
  void domain(const std::string &dir, const std::string &name,
              std::uint64_t energy, std::uint64_t range) {
    std::string folder = root + "/" + dir;
    mkdir(folder.c_str(), 0755);
    std::ofstream(folder + "/name") << name << "\n";
    std::ofstream(folder + "/max_energy_range_uj") << range << "\n";
    set(dir, energy);
  }
  void set(const std::string &dir, std::uint64_t energy) {
    std::ofstream(root + "/" + dir + "/energy_uj") << energy << "\n";
  }
  std::string root;
};

} // namespace

TEST(RaplEnergyTest, SumsPackagesAndCountsWrapArounds) {
  FakePowercap fake;
  fake.domain("intel-rapl:0", "package-0", 900'000, 1'000'000);
  fake.domain("intel-rapl:1", "package-1", 5'000'000, 100'000'000);
  // A sub-domain of package 0: already inside its counter.
  fake.domain("intel-rapl:0:0", "core", 123, 1'000'000);
  RaplEnergy meter(fake.root);
  ASSERT_TRUE(meter.available());
  EXPECT_EQ(meter.domainNames(),
            (std::vector<std::string>{"package-0", "package-1"}));
  EXPECT_EQ(*meter.joules(), 0.0);
  fake.set("intel-rapl:0", 100'000); // wrapped: +200,000 uJ
  fake.set("intel-rapl:1", 6'500'000); // +1,500,000 uJ
  EXPECT_DOUBLE_EQ(*meter.joules(), 1.7);
  fake.set("intel-rapl:0", 400'000); // +300,000 uJ
  EXPECT_DOUBLE_EQ(*meter.joules(), 2.0);
}

TEST(RaplEnergyTest, NoCountersMeansNoFigure) {
  RaplEnergy missing("/nonexistent/powercap");
  EXPECT_FALSE(missing.available());
  EXPECT_FALSE(missing.joules().has_value());
  FakePowercap unreadable;
  unreadable.domain("intel-rapl:0", "package-0", 1, 1000);
  RaplEnergy meter(unreadable.root);
  ASSERT_TRUE(meter.available());
  std::remove((unreadable.root + "/intel-rapl:0/energy_uj").c_str());
  EXPECT_FALSE(meter.joules().has_value());
}
