"""REST query and body models declared from an operation of the catalogue.

    class Touch(OperationInput, operation=TOUCH_MEMORY, in_path=("memory_id",),
                rename={"boost_strength": "boost"}):
        pass

has the fields of `TOUCH_MEMORY.request` (each with its annotation: limits and description)
but those the URL carries (`in_path`) and those the route sets itself (`fixed`), some under a
REST name (`rename`). `to_request(memory_id=ref)` gives the operation its request back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict
from pydantic._internal._model_construction import ModelMetaclass

from cortexgraph_vault.operations import REQUIRED, AnyOperation, params_of


class _FieldsOfOperation(ModelMetaclass):
    """Writes the operation's fields into the class body before pydantic reads it."""

    def __new__(
        mcs,
        name: str,
        bases: tuple[type[Any], ...],
        namespace: dict[str, Any],
        *,
        operation: AnyOperation | None = None,
        in_path: tuple[str, ...] = (),
        rename: Mapping[str, str] | None = None,
        fixed: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> type:
        rename, fixed = dict(rename or {}), dict(fixed or {})
        if operation is not None:
            annotations = dict(namespace.get("__annotations__", {}))
            for p in params_of(operation.request):
                if p.name in in_path or p.name in fixed:
                    continue
                annotations[rename.get(p.name, p.name)] = p.annotation
                if p.default is not REQUIRED:
                    namespace[rename.get(p.name, p.name)] = p.default
            namespace["__annotations__"] = annotations
            # The class variables OperationInput declares (pydantic leaves them out of the fields).
            namespace["operation"] = operation
            namespace["request_names"] = {
                rename.get(f, f): f for f in operation.request.model_fields
            }
            namespace["fixed"] = fixed
        return super().__new__(mcs, name, bases, namespace, **kwargs)


class OperationInput(BaseModel, metaclass=_FieldsOfOperation):
    """A query or body model with the fields of an operation's request."""

    model_config = ConfigDict(extra="forbid")

    operation: ClassVar[AnyOperation]
    request_names: ClassVar[Mapping[str, str]]  # REST name -> request field name
    fixed: ClassVar[Mapping[str, Any]]  # fields the route sets itself

    if TYPE_CHECKING:  # the class keywords, consumed by the metaclass

        def __init_subclass__(
            cls,
            *,
            operation: AnyOperation,
            in_path: tuple[str, ...] = (),
            rename: Mapping[str, str] | None = None,
            fixed: Mapping[str, Any] | None = None,
        ) -> None: ...

    def to_request(self, **path: str) -> Any:
        """The operation's request: these (already validated) fields, the path's, the fixed."""
        values = {self.request_names[name]: getattr(self, name) for name in type(self).model_fields}
        return self.operation.request.model_construct(**values, **path, **self.fixed)
