// A struct of bit-fields in each thread's local memory, set field by field. With nvcc -G every
// field's store is a read-modify-write of a word nobody initialised, so the other fields' bits
// stay undefined until written (issue 19); the fields then feed a ballot, a shuffle's lane and
// the output.
struct Flags {
    unsigned kind : 3;
    unsigned count : 9;
    unsigned owner : 5;
    unsigned seen : 1;
};

extern "C" __global__ void kernel(const int *in, int *out)
{
    int lane = threadIdx.x;
    Flags f;
    f.kind = in[lane] & 7;
    f.count = (in[lane] >> 3) & 511;
    f.owner = lane;
    f.seen = 1;
    unsigned mask = __ballot_sync(0xffffffffu, f.kind > 3);
    int partner = __shfl_sync(0xffffffffu, (int)f.count, f.owner ^ 1);
    out[lane] = (int)f.kind + (int)f.count * 8 + partner * 4096 + ((int)f.seen << 30);
    out[32 + lane] = (int)mask;
}
