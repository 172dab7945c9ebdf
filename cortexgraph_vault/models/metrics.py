"""Timings of service calls, as `get_performance_metrics` reports them."""

from __future__ import annotations

from pydantic import Field

from cortexgraph_vault.models.memory import Model


class OperationTiming(Model):
    operation: str = Field(description="the tool or service operation")
    count: int = Field(description="calls since the process started")
    errors: int = Field(description="calls that ended in an error")
    p50_ms: float = Field(description="median duration in milliseconds")
    p95_ms: float = Field(description="95th percentile duration in milliseconds")
    max_ms: float
    mean_ms: float
    sampled: int = Field(description="how many of the most recent calls the durations cover")


class PerformanceMetrics(Model):
    uptime_seconds: float
    total_calls: int
    total_errors: int
    operations: list[OperationTiming] = Field(description="busiest operation first")
