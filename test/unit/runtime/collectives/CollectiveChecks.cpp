//===- CollectiveChecks.cpp - One rank's half of each collective check ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CollectiveChecks.h"

#include "HalfFloat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace kiln::rt::test {

const std::vector<DType> &allDTypes() {
  static const std::vector<DType> types = {
      DType::kF32, DType::kF16, DType::kBF16, DType::kF64, DType::kI1,
      DType::kI8,  DType::kI16, DType::kI32,  DType::kI64, DType::kU8,
      DType::kU16, DType::kU32, DType::kU64};
  return types;
}

const std::vector<DType> &reducibleDTypes() {
  static const std::vector<DType> types = [] {
    std::vector<DType> reducible;
    for (DType type : allDTypes())
      if (type != DType::kI1)
        reducible.push_back(type);
    return reducible;
  }();
  return types;
}

std::vector<DType> reducibleDTypes(const Communicator &comm) {
  std::vector<DType> types = reducibleDTypes();
  if (std::string(comm.backendName()) == "nccl")
    types.erase(std::remove_if(types.begin(), types.end(),
                               [](DType type) {
                                 return type == DType::kI16 ||
                                        type == DType::kU16;
                               }),
                types.end());
  return types;
}

const std::vector<ReduceOp> &allReduceOps() {
  static const std::vector<ReduceOp> ops = {ReduceOp::kSum, ReduceOp::kMax,
                                            ReduceOp::kMin, ReduceOp::kProd};
  return ops;
}

Elements::Elements(DType dtype, size_t count)
    : dtype_(dtype), count_(count), elementBytes_(dtypeSize(dtype)),
      bytes_(count * elementBytes_ + 1, 0xAB) {}

namespace {
template <typename T> void store(uint8_t *at, T value) {
  std::memcpy(at, &value, sizeof(T));
}
template <typename T> T load(const uint8_t *at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}
} // namespace

void Elements::set(size_t i, double value) {
  uint8_t *p = at(i);
  switch (dtype_) {
  case DType::kF32:
    return store(p, float(value));
  case DType::kF64:
    return store(p, value);
  case DType::kF16:
    return store(p, floatToF16(float(value)));
  case DType::kBF16:
    return store(p, floatToBf16(float(value)));
  case DType::kI1:
    return store(p, uint8_t(value != 0));
  case DType::kI8:
    return store(p, int8_t(value));
  case DType::kI16:
    return store(p, int16_t(value));
  case DType::kI32:
    return store(p, int32_t(value));
  case DType::kI64:
    return store(p, int64_t(value));
  case DType::kU8:
    return store(p, uint8_t(value));
  case DType::kU16:
    return store(p, uint16_t(value));
  case DType::kU32:
    return store(p, uint32_t(value));
  case DType::kU64:
    return store(p, uint64_t(value));
  }
}

double Elements::get(size_t i) const {
  const uint8_t *p = bytes_.data() + i * elementBytes_;
  switch (dtype_) {
  case DType::kF32:
    return load<float>(p);
  case DType::kF64:
    return load<double>(p);
  case DType::kF16:
    return f16ToFloat(load<uint16_t>(p));
  case DType::kBF16:
    return bf16ToFloat(load<uint16_t>(p));
  case DType::kI1:
  case DType::kU8:
    return load<uint8_t>(p);
  case DType::kI8:
    return load<int8_t>(p);
  case DType::kI16:
    return load<int16_t>(p);
  case DType::kI32:
    return load<int32_t>(p);
  case DType::kI64:
    return double(load<int64_t>(p));
  case DType::kU16:
    return load<uint16_t>(p);
  case DType::kU32:
    return load<uint32_t>(p);
  case DType::kU64:
    return double(load<uint64_t>(p));
  }
  return 0;
}

namespace {
bool isUnsigned(DType dtype) {
  return dtype == DType::kU8 || dtype == DType::kU16 || dtype == DType::kU32 ||
         dtype == DType::kU64 || dtype == DType::kI1;
}

std::string what(const char *collective, DType dtype, size_t count,
                 const char *detail = "") {
  return std::string(collective) + " " + dtypeName(dtype) + " count " +
         std::to_string(count) + detail;
}
} // namespace

double valueOf(int rank, size_t i, ReduceOp op, DType dtype) {
  if (dtype == DType::kI1)
    return double((size_t(rank) + i) % 2);
  if (op == ReduceOp::kProd)
    return double(1 + (size_t(rank) + i) % 3);
  double value = double((size_t(rank) * 7 + i * 3) % 11);
  return isUnsigned(dtype) ? value : value - 5;
}

double reducedValue(int ranks, size_t i, ReduceOp op, DType dtype) {
  double acc = valueOf(0, i, op, dtype);
  for (int r = 1; r < ranks; ++r) {
    double value = valueOf(r, i, op, dtype);
    switch (op) {
    case ReduceOp::kSum:
      acc += value;
      break;
    case ReduceOp::kMax:
      acc = std::max(acc, value);
      break;
    case ReduceOp::kMin:
      acc = std::min(acc, value);
      break;
    case ReduceOp::kProd:
      acc *= value;
      break;
    }
  }
  return acc;
}

void checkAllReduce(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  for (DType dtype : reducibleDTypes(comm))
    for (ReduceOp op : allReduceOps())
      for (size_t count : {size_t(0), size_t(1), size_t(7), size_t(1031)})
        for (bool inPlace : {false, true}) {
          SCOPED_TRACE(
              what("allReduce", dtype, count, inPlace ? " in place" : "") +
              " " + reduceOpName(op) + " rank " + std::to_string(rank));
          Elements send(dtype, count), recv(dtype, count);
          for (size_t i = 0; i < count; ++i)
            send.set(i, valueOf(rank, i, op, dtype));
          Elements &out = inPlace ? send : recv;
          Status status =
              comm.allReduce(send.data(), out.data(), count, dtype, op);
          ASSERT_TRUE(status.isOk()) << status.toString();
          for (size_t i = 0; i < count; ++i)
            ASSERT_EQ(out.get(i), reducedValue(ranks, i, op, dtype))
                << "element " << i;
          ASSERT_EQ(out.data()[count * dtypeSize(dtype)], 0xAB)
              << "wrote past the end";
        }
}

void checkAllGather(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  for (DType dtype : allDTypes())
    for (size_t count : {size_t(0), size_t(1), size_t(7)})
      for (bool inPlace : {false, true}) {
        SCOPED_TRACE(
            what("allGather", dtype, count, inPlace ? " in place" : ""));
        Elements send(dtype, count), recv(dtype, count * size_t(ranks));
        for (size_t i = 0; i < count; ++i) {
          send.set(i, valueOf(rank, i, ReduceOp::kSum, dtype));
          recv.set(size_t(rank) * count + i,
                   valueOf(rank, i, ReduceOp::kSum, dtype));
        }
        const void *from = inPlace ? recv.at(size_t(rank) * count)
                                   : static_cast<const void *>(send.data());
        Status status = comm.allGather(from, recv.data(), count, dtype);
        ASSERT_TRUE(status.isOk()) << status.toString();
        for (int r = 0; r < ranks; ++r)
          for (size_t i = 0; i < count; ++i)
            ASSERT_EQ(recv.get(size_t(r) * count + i),
                      valueOf(r, i, ReduceOp::kSum, dtype))
                << "rank " << r << " element " << i;
      }
}

void checkReduceScatter(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  for (DType dtype : reducibleDTypes(comm))
    for (ReduceOp op : allReduceOps())
      for (size_t count : {size_t(0), size_t(1), size_t(7)})
        for (bool inPlace : {false, true}) {
          SCOPED_TRACE(
              what("reduceScatter", dtype, count, inPlace ? " in place" : "") +
              " " + reduceOpName(op));
          size_t total = count * size_t(ranks);
          Elements send(dtype, total), recv(dtype, count);
          for (size_t i = 0; i < total; ++i)
            send.set(i, valueOf(rank, i, op, dtype));
          void *to = inPlace ? send.at(size_t(rank) * count)
                             : static_cast<void *>(recv.data());
          Status status = comm.reduceScatter(send.data(), to, count, dtype, op);
          ASSERT_TRUE(status.isOk()) << status.toString();
          Elements &out = inPlace ? send : recv;
          size_t base = inPlace ? size_t(rank) * count : 0;
          for (size_t i = 0; i < count; ++i)
            ASSERT_EQ(out.get(base + i),
                      reducedValue(ranks, size_t(rank) * count + i, op, dtype))
                << "element " << i;
        }
}

void checkBroadcast(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  for (DType dtype :
       {DType::kF32, DType::kBF16, DType::kI1, DType::kI64, DType::kU8})
    for (int root = 0; root < ranks; ++root)
      for (size_t count : {size_t(0), size_t(1), size_t(7)})
        for (bool inPlace : {false, true}) {
          SCOPED_TRACE(
              what("broadcast", dtype, count, inPlace ? " in place" : "") +
              " root " + std::to_string(root));
          Elements send(dtype, count), recv(dtype, count);
          Elements &out = inPlace ? send : recv;
          if (rank == root)
            for (size_t i = 0; i < count; ++i)
              send.set(i, valueOf(root, i, ReduceOp::kSum, dtype));
          // Only the root's send is read: the others may pass null.
          const void *from = rank == root || inPlace ? send.data() : nullptr;
          Status status = comm.broadcast(from, out.data(), count, dtype, root);
          ASSERT_TRUE(status.isOk()) << status.toString();
          for (size_t i = 0; i < count; ++i)
            ASSERT_EQ(out.get(i), valueOf(root, i, ReduceOp::kSum, dtype));
        }
}

void checkAllToAll(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  for (DType dtype : {DType::kI32, DType::kF16, DType::kU8})
    for (size_t count : {size_t(0), size_t(1), size_t(7)}) {
      SCOPED_TRACE(what("allToAll", dtype, count));
      size_t total = count * size_t(ranks);
      Elements send(dtype, total), recv(dtype, total);
      auto value = [&](int from, int to, size_t i) {
        return double(from * 16 + to * 4 + int(i % 4));
      };
      for (int to = 0; to < ranks; ++to)
        for (size_t i = 0; i < count; ++i)
          send.set(size_t(to) * count + i, value(rank, to, i));
      Status status = comm.allToAll(send.data(), recv.data(), count, dtype);
      ASSERT_TRUE(status.isOk()) << status.toString();
      for (int from = 0; from < ranks; ++from)
        for (size_t i = 0; i < count; ++i)
          ASSERT_EQ(recv.get(size_t(from) * count + i), value(from, rank, i));
    }
}

void checkSendRecv(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  if (ranks < 2)
    return;
  // A send blocks until its peer receives: rank 0 starts the ring, every
  // other rank receives first.
  int next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
  for (size_t count : {size_t(0), size_t(1), size_t(7)}) {
    SCOPED_TRACE("ring, count " + std::to_string(count));
    Elements out(DType::kF64, count), in(DType::kF64, count);
    for (size_t i = 0; i < count; ++i)
      out.set(i, rank * 100.0 + double(i));
    auto sendOn = [&] {
      return comm.send(out.data(), count, DType::kF64, next);
    };
    auto recvOn = [&] {
      return comm.recv(in.data(), count, DType::kF64, previous);
    };
    Status first = rank == 0 ? sendOn() : recvOn();
    ASSERT_TRUE(first.isOk()) << first.toString();
    Status second = rank == 0 ? recvOn() : sendOn();
    ASSERT_TRUE(second.isOk()) << second.toString();
    for (size_t i = 0; i < count; ++i)
      ASSERT_EQ(in.get(i), previous * 100.0 + double(i));
  }
}

void checkHalfPrecision(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  const size_t count = 37;
  for (DType dtype : {DType::kF16, DType::kBF16})
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMax}) {
      SCOPED_TRACE(what("allReduce", dtype, count) + " " + reduceOpName(op));
      auto input = [&](int r, size_t i) {
        Elements one(dtype, 1);
        one.set(0, 0.1 * (r + 1) + 0.37 * double(i) - 2.0);
        return one.get(0); // As the type holds it.
      };
      Elements send(dtype, count), recv(dtype, count);
      for (size_t i = 0; i < count; ++i)
        send.set(i, input(rank, i));
      Status status =
          comm.allReduce(send.data(), recv.data(), count, dtype, op);
      ASSERT_TRUE(status.isOk()) << status.toString();
      for (size_t i = 0; i < count; ++i) {
        // The f32 reference: accumulate in rank order, round once.
        float acc = float(input(0, i));
        double exact = input(0, i);
        for (int r = 1; r < ranks; ++r) {
          float value = float(input(r, i));
          acc = op == ReduceOp::kSum    ? acc + value
                : op == ReduceOp::kProd ? acc * value
                                        : std::max(acc, value);
          exact = op == ReduceOp::kSum    ? exact + value
                  : op == ReduceOp::kProd ? exact * value
                                          : std::max(exact, double(value));
        }
        Elements reference(dtype, 1);
        reference.set(0, acc);
        ASSERT_EQ(recv.get(i), reference.get(0)) << "element " << i;
        double ulp =
            dtype == DType::kF16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
        ASSERT_NEAR(recv.get(i), exact,
                    std::fabs(exact) * ulp + std::ldexp(1.0, -24))
            << "element " << i;
      }
    }
}

void checkBarrierAndArguments(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  for (int i = 0; i < 3; ++i) {
    Status status = comm.barrier();
    ASSERT_TRUE(status.isOk()) << status.toString();
  }
  // Refused on every rank before anything is exchanged: nobody waits.
  std::vector<float> buffer(16 * size_t(ranks), 1.0f);
  Status i1 = comm.allReduce(buffer.data(), buffer.data(), 4, DType::kI1,
                             ReduceOp::kSum);
  EXPECT_EQ(i1.code(), StatusCode::kUnimplemented) << i1.toString();
  EXPECT_NE(i1.message().find("allReduce #"), std::string::npos)
      << i1.message();
  Status overlap = comm.allReduce(buffer.data(), buffer.data() + 1, 4,
                                  DType::kF32, ReduceOp::kSum);
  EXPECT_EQ(overlap.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(overlap.message().find("overlap"), std::string::npos);
  Status root =
      comm.broadcast(buffer.data(), buffer.data(), 4, DType::kF32, ranks);
  EXPECT_EQ(root.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(root.message().find("root " + std::to_string(ranks)),
            std::string::npos)
      << root.message();
  Status self = comm.send(buffer.data(), 4, DType::kF32, rank);
  EXPECT_EQ(self.code(), StatusCode::kInvalidArgument);
  Status alltoall = comm.allToAll(buffer.data(), buffer.data(), 4, DType::kF32);
  EXPECT_EQ(alltoall.code(), StatusCode::kInvalidArgument);
  Status null = comm.allGather(nullptr, buffer.data(), 4, DType::kF32);
  EXPECT_EQ(null.code(), StatusCode::kInvalidArgument);
  Status op =
      comm.allReduce(buffer.data(), buffer.data(), 4, DType::kF32, ReduceOp(9));
  EXPECT_EQ(op.code(), StatusCode::kInvalidArgument);
  // The group is still in step.
  std::vector<float> one(1, 1.0f);
  Status after =
      comm.allReduce(one.data(), one.data(), 1, DType::kF32, ReduceOp::kSum);
  ASSERT_TRUE(after.isOk()) << after.toString();
  EXPECT_EQ(one[0], float(ranks));
}

void checkSplit2x2(Communicator &comm) {
  if (comm.size() != 4)
    return;
  int rank = comm.rank();
  int row = rank / 2, column = rank % 2;
  auto rows = comm.split(row, column);
  ASSERT_TRUE(rows.isOk()) << rows.status().toString();
  auto columns = comm.split(column, row);
  ASSERT_TRUE(columns.isOk()) << columns.status().toString();
  ASSERT_EQ((*rows)->size(), 2);
  EXPECT_EQ((*rows)->rank(), column);
  EXPECT_EQ((*columns)->rank(), row);

  int32_t value = 1 << rank, sum = 0;
  Status status =
      (*rows)->allReduce(&value, &sum, 1, DType::kI32, ReduceOp::kSum);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(sum, row == 0 ? 0b0011 : 0b1100);
  status = (*columns)->allReduce(&value, &sum, 1, DType::kI32, ReduceOp::kSum);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(sum, column == 0 ? 0b0101 : 0b1010);
  // The world still works between sub-group calls.
  status = comm.allReduce(&value, &sum, 1, DType::kI32, ReduceOp::kSum);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(sum, 0b1111);

  // Keys order the new ranks; ties keep the old order.
  auto reversed = comm.split(7, -rank);
  ASSERT_TRUE(reversed.isOk()) << reversed.status().toString();
  EXPECT_EQ((*reversed)->rank(), 3 - rank);
  int32_t gathered[4] = {};
  status = (*reversed)->allGather(&rank, gathered, 1, DType::kI32);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(gathered[0], 3);
  EXPECT_EQ(gathered[3], 0);

  // A negative color joins nothing.
  auto lonely = comm.split(rank == 0 ? 0 : -1, 0);
  ASSERT_TRUE(lonely.isOk()) << lonely.status().toString();
  EXPECT_EQ(*lonely == nullptr, rank != 0);
  if (rank == 0) {
    EXPECT_EQ((*lonely)->size(), 1);
    status = (*lonely)->barrier();
    EXPECT_TRUE(status.isOk()) << status.toString();
  }
  // Split of a split: each row alone.
  auto single = (*rows)->split((*rows)->rank(), 0);
  ASSERT_TRUE(single.isOk()) << single.status().toString();
  EXPECT_EQ((*single)->size(), 1);
}

void checkFingerprintMismatch(Communicator &comm) {
  int rank = comm.rank(), ranks = comm.size();
  if (ranks < 2)
    return;
  std::vector<float> buffer(8 * size_t(ranks), 1.0f);
  size_t count = rank == 0 ? 7 : 8;
  Status status = comm.allReduce(buffer.data(), buffer.data(), count,
                                 DType::kF32, ReduceOp::kSum);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.toString();
  EXPECT_NE(status.message().find("ranks disagree"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("allReduce #"), std::string::npos);
  EXPECT_NE(status.message().find("count 7 f32 sum"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("count 8 f32 sum"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("on rank " + std::to_string(rank)),
            std::string::npos)
      << status.message();

  Status kinds =
      rank == 0
          ? comm.allGather(buffer.data(), buffer.data() + 8, 2, DType::kF32)
          : comm.broadcast(buffer.data(), buffer.data(), 2, DType::kF32, 0);
  EXPECT_EQ(kinds.code(), StatusCode::kInvalidArgument) << kinds.toString();
  EXPECT_NE(kinds.message().find("allGather #"), std::string::npos)
      << kinds.message();
  EXPECT_NE(kinds.message().find("broadcast #"), std::string::npos)
      << kinds.message();

  // Still usable.
  float one = 1.0f, sum = 0.0f;
  Status after = comm.allReduce(&one, &sum, 1, DType::kF32, ReduceOp::kSum);
  ASSERT_TRUE(after.isOk()) << after.toString();
  EXPECT_EQ(sum, float(ranks));
}

} // namespace kiln::rt::test
