"""`eager`: an async resolver that needs no waiting answers at once; one that waits still answers."""

from __future__ import annotations

import asyncio

import pytest
import strawberry
from strawberry.dataloader import DataLoader

from weft.schema.support.eager import eager


def test_a_finished_first_step_is_a_plain_value() -> None:
    async def primed() -> int:
        loader = DataLoader(load_fn=_never)
        loader.prime(1, 42)
        return await loader.load(1)

    assert eager(primed)() == 42  # no event loop needed at all


async def _never(keys: list[int]) -> list[int]:
    raise AssertionError("a primed key is never loaded")


def test_a_waiting_resolver_finishes_through_the_event_loop() -> None:
    loads: list[list[int]] = []

    async def load(keys: list[int]) -> list[int]:
        loads.append(keys)
        await asyncio.sleep(0.01)
        return [k * 10 for k in keys]

    async def main() -> list[int]:
        loader = DataLoader(load_fn=load)

        async def one(key: int) -> int:
            return await loader.load(key) + 1

        pending = [eager(one)(k) for k in (1, 2, 3, 2)]  # key 2 twice: both wait on the same future
        assert all(not isinstance(p, int) for p in pending)
        return list(await asyncio.gather(*pending))  # type: ignore[arg-type]

    assert asyncio.run(main()) == [11, 21, 31, 21]
    assert loads == [[1, 2, 3]], "the eager first steps still batch into one load"


def test_errors_and_cancellation_pass_through() -> None:
    async def broken() -> int:
        raise ValueError("bad id")

    with pytest.raises(ValueError, match="bad id"):
        eager(broken)()

    async def main() -> str:
        async def slow() -> str:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                return "cleaned up"
            return "slept"

        async def run() -> str:
            return await eager(slow)()  # type: ignore[misc]

        task = asyncio.ensure_future(run())
        await asyncio.sleep(0.01)
        task.cancel()
        return await task

    assert asyncio.run(main()) == "cleaned up"


@strawberry.type
class Thing:
    id: int

    @strawberry.field(description="Twice the id, from a primed loader.")
    @eager
    async def double(self, info: strawberry.Info, plus: int = 0) -> int:
        return await info.context["loader"].load(self.id) + plus


@strawberry.type
class Query:
    @strawberry.field
    def things(self) -> list[Thing]:
        return [Thing(id=i) for i in range(3)]


def test_strawberry_sees_the_resolver_signature_and_awaits_when_needed() -> None:
    schema = strawberry.Schema(query=Query)
    assert "double(plus: Int! = 0): Int!" in schema.as_str()

    async def load(keys: list[int]) -> list[int]:
        return [2 * k for k in keys]

    async def run(prime: bool) -> object:
        loader = DataLoader(load_fn=load)
        if prime:
            for i in range(3):
                loader.prime(i, 2 * i)
        result = await schema.execute("{ things { double(plus: 1) } }", context_value={"loader": loader})
        assert result.errors is None
        return result.data

    want = {"things": [{"double": 1}, {"double": 3}, {"double": 5}]}
    assert asyncio.run(run(prime=True)) == want
    assert asyncio.run(run(prime=False)) == want
