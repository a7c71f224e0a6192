//===- CollectiveChecks.h - One rank's half of each collective check -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every check runs on every rank of a communicator (rank threads in
// InProcessGroupTest.cpp, processes under mpirun in MpiCommunicatorTest.cpp)
// and reports with gtest's EXPECT macros. Values depend only on (rank,
// element), so each rank can compute the expected result alone.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_RUNTIME_COLLECTIVES_COLLECTIVECHECKS_H
#define KILN_TEST_UNIT_RUNTIME_COLLECTIVES_COLLECTIVECHECKS_H

#include "kiln/runtime/Communicator.h"

#include <cstdint>
#include <vector>

namespace kiln::rt::test {

/// Every dtype a collective moves, and those it reduces.
const std::vector<DType> &allDTypes();
const std::vector<DType> &reducibleDTypes();
/// Those `comm`'s backend reduces (NCCL has no 16-bit integers).
std::vector<DType> reducibleDTypes(const Communicator &comm);
const std::vector<ReduceOp> &allReduceOps();

/// Host values of a dtype, stored as that dtype's bytes.
class Elements {
public:
  Elements(DType dtype, size_t count);
  void set(size_t i, double value);
  double get(size_t i) const;
  size_t count() const { return count_; }
  uint8_t *data() { return bytes_.data(); }
  const uint8_t *data() const { return bytes_.data(); }
  uint8_t *at(size_t i) { return bytes_.data() + i * elementBytes_; }

private:
  DType dtype_;
  size_t count_, elementBytes_;
  std::vector<uint8_t> bytes_;
};

/// Small integers (exact in every type, products fit i8 over 4 ranks):
/// rank r's element i for `op`.
double valueOf(int rank, size_t i, ReduceOp op, DType dtype);
/// The reduction over `ranks` of valueOf, computed in double.
double reducedValue(int ranks, size_t i, ReduceOp op, DType dtype);

void checkAllReduce(Communicator &comm);
void checkAllGather(Communicator &comm);
void checkReduceScatter(Communicator &comm);
void checkBroadcast(Communicator &comm);
void checkAllToAll(Communicator &comm);
void checkSendRecv(Communicator &comm);
void checkHalfPrecision(Communicator &comm);
void checkBarrierAndArguments(Communicator &comm);
/// Rank pairs of a 2x2 mesh (needs 4 ranks): rows, columns, reordering.
void checkSplit2x2(Communicator &comm);
/// Ranks make different calls: every rank reports both fingerprints, and
/// the group stays usable. Needs options().checkFingerprints on MPI.
void checkFingerprintMismatch(Communicator &comm);

} // namespace kiln::rt::test

#endif // KILN_TEST_UNIT_RUNTIME_COLLECTIVES_COLLECTIVECHECKS_H
