"""The ranks' timelines simulated together: waits, overlap of transfers, the slowest rank and the critical path.

Data flow: each rank's events (sad.predict.trace: compute intervals, sends, receives; collectives already
expanded into messages) and the machine's message model (`Network.of`, from the LogGP figures of the machine
database's communication level) → `simulate` → per rank its end time and its compute / communicate / wait
split, the slowest rank and the critical path that ends there.

The message model (LogGP with per-byte overheads, Alexandrov et al. 1995), for a message of b bytes:

    sender      busy o_s + b·O_s (setup, copy to the buffer); with DMA it then continues, without DMA it also
                drives the transfer (busy until the transfer ends)
    channel     the transfer starts when the copy is done and the sender's outgoing channel is free, takes
                b·G and frees the channel g later; it arrives L after it ends. On a machine whose sends are
                pipelined (`communication.pipelined`) the transfer starts after the setup o_s, reading the
                buffer as the copy fills it, and ends b·G later, not before the copy (LogGP's view of a
                long message: its stages overlap and the slowest sets the per-byte time, Alexandrov et al.
                1995); the sender's processor still copies, so its successive sends are spaced as before
    receiver    a receive waits until the matching message has arrived (the wait is the receiver's), then is
                busy o_r + b·O_r (setup, copy out of the buffer)
    synchronous a synchronous send (MPI_SSEND; MPI_ISSEND at its wait) is a send as above whose sender then
                waits until the message has arrived and the receive that takes it has started (an `ack`
                event; the acknowledgement itself is not timed, L = 0 here); any other send is buffered
                and completes locally

With L = g = 0 one message between two idle ranks takes o_s + o_r + b·(O_s + G + O_r): the PerPreT five-phase
PICL message comm(b) (Brehm 1999, Sec. 6.1.3) that the programming-model level prices; pipelined,
o_s + o_r + b·(max(O_s, G) + O_r). The channels are the
topology's: a hypercube node has one per dimension (e-cube routing: a message leaves on the lowest dimension
in which source and destination differ), any other node one network interface. Contention beyond the
sender's own channel (links further along the route, the receiver's) is not modelled.

Ranks that share cores (a machine whose `communication.cores` is below the number of ranks: more MPI
processes than cores on one node): each rank does exactly the work it would do alone and the P ranks' work
shares the C cores, so the whole timeline (every end, compute, communicate, wait, every step of the path) is
the unshared one stretched by P / C (`Result.shared`). Open MPI, told the ranks outnumber the cores
(sad.machine.mpibench.mpirun_command), lets a waiting rank yield its core rather than poll through its time
slice: measured on one core of the development host (CG-Tree, 4 ranks, 50 iterations), each rank used 4-6 ms
of CPU inside its calls against 60 ms outside them, so the core goes to the ranks that compute. The stretch is
then exact for the work, and a rank's waits, stretched too, are an upper bound: CG-Tree at 4 ranks waits
1.6 ms unshared, 6.5 ms stretched, of 246 ms. Other load on the cores is not known (sad extrapolate measures
the part of its cores' time the traced run got, sad.measure.mpitrace.core_share).

Why an event loop of its own and not simpy: every resource (a rank's processor, its outgoing channels)
belongs to one rank and is used in that rank's program order, so the only coupling between ranks is a
receive waiting for its send. A rank therefore runs until it meets a receive whose message has not been
sent, and is resumed when it is; no global clock or process objects are needed, and each event is a few
Python operations (simpy's generator processes cost several times that per event; 10^6 events matter for
P = 1024 × 100 iterations). Messages match as MPI matches them: source (or any), tag (or any), in order;
a receive from any source takes the earliest arrival, after the ranks whose clocks are behind that arrival
have run (a rank blocked at that moment and woken later is not waited for: MPI_ANY_SOURCE is approximate).

Every rank is simulated, including ranks the tracer found alike (sad.predict.rankclass): their times
differ. A tree's father sends to its sons one after the other, so each rank's broadcast arrives at its own
time, and a level's ranks agree only up to rounding; an exact quotient (ranks with equal events whose
partners are alike and whose receives match sends at the same places) gave one class for a ring and as
many classes as ranks for every tree program, at about the cost of simulating them. What is shared is the
trips of a folded loop (simulate_folded).
"""
from __future__ import annotations

import contextlib
import gc
import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from sad.predict.events import ANY, Op


class DeadlockError(Exception):
    """Ranks wait for messages that are never sent, messages sent are never received, or a message is sent to
    a rank that does not exist."""


@dataclass(frozen=True)
class Network:
    """LogGP parameters in seconds (per byte for O_s, O_r, G), the DMA property and the channel rule."""
    o_s: float
    o_r: float
    O_s: float
    O_r: float
    G: float
    L: float = 0.0
    g: float = 0.0
    dma: bool = True
    pipelined: bool = False  # a send's transfer follows its copy (communication.pipelined)
    hypercube: bool = False
    cores: int = 0  # the cores the ranks share (communication.cores); 0: every rank has a processor of its own

    def share(self, nprocs: int) -> float:
        """How much slower every rank runs when nprocs ranks share the cores: P / C, at least 1."""
        return nprocs / self.cores if 0 < self.cores < nprocs else 1.0

    def sharing(self, nprocs: int) -> list[str]:
        """The note that says the ranks share cores (empty when they do not)."""
        if self.share(nprocs) == 1.0:
            return []
        return [f"{nprocs} ranks share {self.cores} core(s): their work shares the cores, so every time is the "
                f"unshared one x {self.share(nprocs):.4g} (waits included: an upper bound for them, a waiting rank "
                "yields its core; other load on the cores is not known)"]

    @classmethod
    def of(cls, machine) -> Network:
        """The machine's LogGP figures (communication.loggp; dma: communication.dma)."""
        loggp = getattr(machine, "loggp", None) or {}
        needed = ("o_s", "o_r", "O_s", "O_r", "G")
        missing = [k for k in needed if k not in loggp]
        if missing:
            raise ValueError(f"{machine.path}: error: communication.loggp: the timeline needs {', '.join(needed)} "
                             f"(missing: {', '.join(missing)})")
        topology = getattr(machine, "topology", {}) or {}
        o_s, o_r, per_send, per_recv, per_link = (float(loggp[k]) for k in needed)
        return cls(o_s, o_r, per_send, per_recv, per_link, L=float(loggp.get("L", 0)), g=float(loggp.get("g", 0)),
                   dma=bool(getattr(machine, "dma", True)), pipelined=bool(getattr(machine, "pipelined", False)),
                   hypercube=topology.get("kind") == "hypercube",
                   cores=int(getattr(machine, "cores", 0) or 0))

    def channel(self, src: int, dst: int) -> int:
        """The sender's outgoing channel a message to dst leaves on."""
        if self.hypercube:
            diff = src ^ dst
            return (diff & -diff).bit_length() - 1
        return 0


@dataclass(frozen=True)
class Step:
    """A piece of the critical path: on `rank` from `start` to `end` (seconds)."""
    rank: int
    kind: str  # compute | send | recv | transfer | link
    start: float
    end: float
    where: str = ""
    peer: int = -1


@dataclass
class Result:
    """What the simulation found."""
    end: list[float]
    compute: list[float]
    communicate: list[float]
    wait: list[float]
    path: list[Step] = field(default_factory=list)
    messages: int = 0
    folded: tuple[int, int] | None = None  # (trips simulated, trips in all): see simulate_folded
    shared: float = 1.0  # P / C when the ranks share C cores: every time stretched by it (Network.share)

    @property
    def slowest(self) -> int:
        """The rank that finishes last (the lowest of equals)."""
        return max(range(len(self.end)), key=lambda r: (self.end[r], -r))

    @property
    def time(self) -> float:
        """The program's time: its slowest rank's."""
        return self.end[self.slowest]


# a rank's record: (start, end, kind, where, link) with link for a wait or a receive the message received
# (sender, tag, bytes, arrival, transfer start, sender done, the sender's segment), for a send (receiver,)
_Segment = tuple[float, float, str, str, tuple | None]


def simulate(traces: list[list[Op]], net: Network, path: bool = True) -> Result:
    """Run every rank's events; raises DeadlockError when some rank waits for a message never sent."""
    with _collector_off():
        state = _State(len(traces))
        _advance(state, traces, net, path)
        return _finished(state, traces, net, path)


@contextlib.contextmanager
def _collector_off() -> Iterator[None]:
    """Python's cycle collector off while the ranks are simulated, on again after (as it was). The simulation
    makes millions of tuples and lists (messages, the record, the cuts) and no reference cycle, so
    refcounts free all it drops, as they would with the collector on; but each full collection that those
    allocations set off walks every event of every rank (CG-Tree, 4 096 ranks x 100 iterations, folded:
    1.40 s CPU with it on, 0.94 s off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _State:
    """Where the event loop is: every rank's clock, next event, sums, channels, received messages and record.
    A run may stop every rank at a given event and go on later, with the same or longer event lists whose
    events up to there are the same (simulate_folded): each rank's times and sums come out the same, since
    the loop computes them in the rank's own order, whichever ranks ran in between."""

    def __init__(self, nprocs: int) -> None:
        self.clock = [0.0] * nprocs
        self.pc = [0] * nprocs
        self.compute, self.communicate, self.wait = [0.0] * nprocs, [0.0] * nprocs, [0.0] * nprocs
        self.channels: list[dict[int, float]] = [{} for _ in range(nprocs)]
        # a message in a receiver's box: (source, tag, bytes, arrival, transfer start, sender done, send
        # segment, synchronous)
        self.boxes: list[list[tuple]] = [[] for _ in range(nprocs)]
        # a synchronous send's acknowledgements at its sender, in a message's form: (receiver, tag, 0, the time
        # its receive started, the same twice, the receiver's segment then, False)
        self.acks: list[list[tuple]] = [[] for _ in range(nprocs)]
        self.blocked = [False] * nprocs
        self.record: list[list[_Segment]] = [[] for _ in range(nprocs)]
        self.parked = list(range(nprocs))  # ranks stopped where they were told to, to go on at the next run
        self.messages = 0
        self.wild = False  # a receive from any source ran: its match depends on the order the ranks ran in

    def copy(self, record: bool) -> _State:
        """A state that goes on apart from this one (record: with the record so far; else none is kept)."""
        other = _State.__new__(_State)
        other.clock, other.pc = self.clock[:], self.pc[:]
        other.compute, other.communicate, other.wait = self.compute[:], self.communicate[:], self.wait[:]
        other.channels = [dict(mine) for mine in self.channels]
        other.boxes = [box[:] for box in self.boxes]
        other.acks = [mine[:] for mine in self.acks]
        other.blocked = self.blocked[:]
        other.record = [mine[:] for mine in self.record] if record else [[] for _ in self.record]
        other.parked, other.messages, other.wild = self.parked[:], self.messages, self.wild
        return other


def _advance(state: _State, traces: list[list[Op]], net: Network, path: bool,
             stops: list[int] | None = None) -> None:
    """Run the ranks until each has ended, waits for a message not sent, or (stops) reached its stop."""
    nprocs = len(traces)
    clock, pc, compute, communicate, wait = state.clock, state.pc, state.compute, state.communicate, state.wait
    channels, boxes, acks, blocked, record = state.channels, state.boxes, state.acks, state.blocked, state.record
    ready = [(clock[r], r) for r in state.parked]
    heapq.heapify(ready)
    parked: list[int] = []
    messages, wild = state.messages, state.wild
    o_s, o_r, per_send, per_recv, per_link = net.o_s, net.o_r, net.O_s, net.O_r, net.G
    latency, gap, dma, hypercube, pipelined = net.L, net.g, net.dma, net.hypercube, net.pipelined
    pop, push = heapq.heappop, heapq.heappush
    while ready:
        _, r = pop(ready)
        blocked[r] = False
        ops, t, i = traces[r], clock[r], pc[r]
        note, mine, box = record[r].append, channels[r], boxes[r]
        # the sums go on from where the rank stopped: each is added up in the rank's own order, the same
        # bits however the ranks are interleaved (a run that stops and goes on, simulate_folded)
        busy_comp, busy_comm, waited = compute[r], communicate[r], wait[r]
        end = len(ops) if stops is None else stops[r]
        # path: a run of computations is one segment (the path merges them anyway, _merged), from the first
        # that advances the clock and named after it; `where` None: no such segment open
        since, where = t, None
        while i < end:
            op = ops[i]
            kind = op.kind
            if kind == "comp":
                seconds = op.seconds
                if path and where is None and t + seconds != t:
                    since, where = t, op.where
                t += seconds
                busy_comp += seconds
                i += 1
                continue
            if where is not None:
                note((since, t, "compute", where, None))
                where = None
            if kind == "send":
                peer, nbytes = op.peer, op.nbytes
                if not 0 <= peer < nprocs:  # a negative one would silently fill another rank's box
                    raise DeadlockError(f"rank {r} sends to rank {peer} at {op.where}: there are ranks 0 to "
                                        f"{nprocs - 1} (the program is erroneous at {nprocs} ranks)")
                done = t + o_s + nbytes * per_send
                if hypercube:
                    diff = r ^ peer
                    ch = (diff & -diff).bit_length() - 1
                else:
                    ch = 0
                free = mine.get(ch, 0.0)
                ready_at = t + o_s if pipelined else done  # pipelined: the transfer follows the copy
                start = ready_at if ready_at > free else free
                finish = start + nbytes * per_link
                if finish < done:
                    finish = done  # it cannot end before the copy that feeds it
                mine[ch] = finish + gap
                busy_to = done if dma else finish
                if path:
                    note((t, busy_to, "send", op.where, (peer,)))
                busy_comm += busy_to - t
                boxes[peer].append((r, op.tag, nbytes, finish + latency, start, done, len(record[r]) - 1,
                                    op.sync))
                messages += 1
                t = busy_to
                if blocked[peer] and peer != r:
                    blocked[peer] = False
                    push(ready, (clock[peer], peer))
            elif kind == "ack":  # a synchronous send completes when its receive has started
                found = _acknowledged(acks[r], op.peer, op.tag)
                if found < 0:
                    blocked[r] = True
                    break
                link = acks[r].pop(found)
                if path:
                    note((t, link[3] if link[3] > t else t, "wait", op.where, link))
                if link[3] > t:
                    waited += link[3] - t
                    t = link[3]
            else:  # recv
                source, tag = op.peer, op.tag
                if box and source == box[0][0] and (tag == box[0][1] or tag == ANY):
                    found = 0  # the common case, without a scan: the oldest message is from the source named
                else:
                    found = _matching(box, source, tag)
                if found < 0:
                    blocked[r] = True
                    break
                if source == ANY:
                    wild = True
                    if ready and ready[0][0] < box[found][3]:
                        push(ready, (box[found][3], r))  # ranks still behind may send one that arrives first
                        break
                msg = box.pop(found)
                arrival = msg[3]
                if path:  # the message itself is the link the critical path follows back
                    note((t, arrival if arrival > t else t, "wait", op.where, msg))
                if arrival > t:
                    waited += arrival - t
                    t = arrival
                if msg[7]:  # a synchronous send: its sender may go on now (the acknowledgement takes no time)
                    sender = msg[0]
                    acks[sender].append((r, msg[1], 0, t, t, t, len(record[r]) - 1, False))
                    if blocked[sender]:
                        blocked[sender] = False
                        push(ready, (clock[sender], sender))
                busy = o_r + msg[2] * per_recv
                if path:
                    note((t, t + busy, "recv", op.where, msg))
                busy_comm += busy
                t += busy
            i += 1
        if where is not None:
            note((since, t, "compute", where, None))
        clock[r], pc[r] = t, i
        compute[r], communicate[r], wait[r] = busy_comp, busy_comm, waited
        if i == end and not blocked[r] and end < len(ops):
            parked.append(r)
    state.parked, state.messages, state.wild = parked, messages, wild


def _finished(state: _State, traces: list[list[Op]], net: Network, path: bool) -> Result:
    """The result of a run that went to the end (DeadlockError where a rank did not get there)."""
    nprocs = len(traces)
    clock, pc, boxes, record = state.clock, state.pc, state.boxes, state.record
    stuck = [r for r in range(nprocs) if pc[r] < len(traces[r])]
    if stuck:
        first = stuck[:8]
        what = "; ".join(f"rank {r} waits for rank {traces[r][pc[r]].peer} at {traces[r][pc[r]].where}"
                         for r in first)
        raise DeadlockError(f"deadlock: {len(stuck)} rank(s) wait for messages never sent ({what})")
    _check_received(boxes)
    result = Result(clock, state.compute, state.communicate, state.wait, messages=state.messages)
    if path:
        result.path = _critical_path(record, result.slowest)
    return _stretched(result, net.share(nprocs))


def _matching(box: list[tuple], source: int, tag: int) -> int:
    """The index of the message a receive from source with tag takes from a box, -1 if none: the first that
    matches (MPI's order), or from any source the one that arrived first."""
    found = -1
    for k, msg in enumerate(box):
        if (source == msg[0] or source == ANY) and (tag == msg[1] or tag == ANY):
            if source != ANY:
                return k
            if found < 0 or msg[3] < box[found][3]:
                found = k  # any source: the message that arrived first among those sent
    return found


def _acknowledged(acks: list[tuple], receiver: int, tag: int) -> int:
    """The index of the acknowledgement of a synchronous send to receiver with tag, -1 if none yet."""
    for k, ack in enumerate(acks):
        if ack[0] == receiver and ack[1] == tag:
            return k
    return -1


def _check_received(boxes: list[list[tuple]]) -> None:
    """Every message sent was received. One left in a box is an erroneous program (MPI_FINALIZE needs every
    communication completed) or events the tracer got wrong: either way its time is not the program's."""
    left = [(msg[0], r, msg[1]) for r, box in enumerate(boxes) for msg in box]
    if left:
        what = "; ".join(f"rank {src} to rank {dst}, tag {tag}" for src, dst, tag in left[:8])
        raise DeadlockError(f"{len(left)} message(s) sent and never received ({what})")


def _stretched(result: Result, factor: float) -> Result:
    """The result with every time multiplied by factor (ranks sharing cores, see the module's docstring)."""
    if factor == 1.0:
        return result
    end, compute, communicate, wait = ([v * factor for v in values] for values in
                                       (result.end, result.compute, result.communicate, result.wait))
    path = [Step(s.rank, s.kind, s.start * factor, s.end * factor, s.where, s.peer) for s in result.path]
    return Result(end, compute, communicate, wait, path, result.messages, result.folded, factor)


def _critical_path(record: list[list[_Segment]], rank: int) -> list[Step]:
    """Backwards from the slowest rank's end: its own segments until a wait that ended when a message
    arrived; then the message's transfer (and its queue on the sender's channel), and on at the sender from
    the moment its processor finished that send."""
    steps: list[Step] = []
    k = len(record[rank]) - 1
    until = float("inf")  # a pipelined send's transfer starts before its copy ends: the path leaves it there
    while k >= 0:
        start, end, kind, where, link = record[rank][k]
        end = min(end, until)
        until = float("inf")
        if kind == "wait":
            sender, _, _, arrival, tx_start, sent, segment, _ = link  # type: ignore[misc]
            if end > start:  # it waited: the message set the pace
                steps.append(Step(rank, "transfer", tx_start, arrival, where, sender))
                if tx_start > sent:
                    steps.append(Step(sender, "link", sent, tx_start, where, rank))
                until = tx_start
                rank, k = sender, segment
                continue
        elif end > start:
            steps.append(Step(rank, kind, start, end, where, link[0] if link else -1))
        k -= 1
    steps.reverse()
    return _merged(steps)


def _merged(steps: list[Step]) -> list[Step]:
    out: list[Step] = []
    for step in steps:
        if out and out[-1].rank == step.rank and out[-1].kind == step.kind == "compute":
            last = out[-1]
            out[-1] = Step(last.rank, last.kind, last.start, step.end, last.where, last.peer)
        else:
            out.append(step)
    return out


FOLD_AT = (3, 4, 5)
"""simulate_folded runs the repeated trips this many times and checks that the last two steps are equal."""


def simulate_folded(traces: list[list[Op]], repeats: list[list[tuple[int, int, int]]], net: Network,
                    path: bool = True) -> Result:
    """The same result as `simulate` for a program whose ranks repeat a loop's trips n times (the tracer's
    replicated trips, sad.predict.trace), found from 3, 4 and 5 trips: when every rank's end, compute,
    communicate and wait grow by the same amount from 3 to 4 trips as from 4 to 5 (the ranks have settled
    into a steady pattern), each grows by that amount per further trip; otherwise every trip is simulated.
    The critical path shown is the 5-trip run's (Result.folded says so)."""
    with _collector_off():
        return _folded(traces, repeats, net, path)


def _folded(traces: list[list[Op]], repeats: list[list[tuple[int, int, int]]], net: Network,
            path: bool) -> Result:
    found = _replicated(repeats)
    if found is None:
        return simulate(traces, net, path)
    trips, picks = found
    if trips <= FOLD_AT[-1] + 1:
        return simulate(traces, net, path)

    def cut(k: int) -> list[list[Op]]:
        return _cut(traces, picks, trips, k)

    def stops(k: int) -> list[int]:
        return [s + k * n for s, n, _ in picks]

    runs = _runs_sharing_trips(cut, stops, net, path)
    a, b, c = runs
    fields = ("end", "compute", "communicate", "wait")
    for name in fields:
        for x, y, z in zip(getattr(a, name), getattr(b, name), getattr(c, name)):
            if abs((z - y) - (y - x)) > 1e-9 * max(1.0, abs(z)):
                return simulate(traces, net, path)
    more = trips - FOLD_AT[-1]
    grown = {name: [z + more * (z - y) for y, z in zip(getattr(b, name), getattr(c, name))] for name in fields}
    return Result(grown["end"], grown["compute"], grown["communicate"], grown["wait"], path=c.path,
                  messages=c.messages + more * (c.messages - b.messages), folded=(FOLD_AT[-1], trips),
                  shared=c.shared)


def _replicated(repeats: list[list[tuple[int, int, int]]]) -> tuple[int, list[tuple[int, int, int]]] | None:
    """The trips every rank replicates and each rank's (first op, ops per trip, trips) of them; None when a
    rank replicates none."""
    picks = [max(reps, key=lambda x: x[1] * x[2]) if reps else None for reps in repeats]
    if not picks or any(p is None for p in picks):
        return None
    # ranks whose trips became equal a trip later replicate fewer: every rank keeps its last `trips` copies
    # replicated (the same loop's trips, so the trips before them are followed alike at every rank)
    trips = min(p[2] for p in picks)  # type: ignore[index]
    return trips, [(s + (t - trips) * n, n, trips) for s, n, t in picks]  # type: ignore[misc]


def _cut(traces: list[list[Op]], picks: list[tuple[int, int, int]], trips: int, k: int) -> list[list[Op]]:
    """Every rank's events with k of its replicated trips."""
    return [ops[:s + k * n] + ops[s + trips * n:] for ops, (s, n, _) in zip(traces, picks)]


def _runs_sharing_trips(cut: Callable[[int], list[list[Op]]], stops: Callable[[int], list[int]], net: Network,
                        path: bool) -> list[Result]:
    """simulate(cut(k)) for each k of FOLD_AT (the critical path of the last only), the trips they share run
    once: the longest cut runs with every rank stopped after its k-th trip; a copy of that state goes on with
    cut(k) (its trips and what follows them), the run itself on to the next stop. Exact, not an estimate:
    without a receive from any source, a rank's events and the messages it receives alone set its times,
    which the event loop computes in the rank's own order whatever the others do meanwhile. The events up to
    a stop are those of every cut with as many trips or more, so their times are the same in each cut; a
    receive before a stop whose message comes after one waits for it as in the cut's own run. With a
    receive from any source, whose match depends on the order the ranks ran in, the cuts are run apart.
    (CG-Tree, 3 + 4 + 5 trips: 12 trips simulated become 5.)"""
    longest = cut(FOLD_AT[-1])
    state = _State(len(longest))
    results: dict[int, Result] = {}
    for k in FOLD_AT[:-1]:
        _advance(state, longest, net, path, stops(k))
        branch = state.copy(record=False)
        events = cut(k)
        _advance(branch, events, net, False)
        if branch.wild:
            break
        results[k] = _finished(branch, events, net, False)
    else:
        _advance(state, longest, net, path)
        if not state.wild:
            results[FOLD_AT[-1]] = _finished(state, longest, net, path)
            return [results[k] for k in FOLD_AT]
    return [simulate(cut(k), net, path=path and k == FOLD_AT[-1]) for k in FOLD_AT]
