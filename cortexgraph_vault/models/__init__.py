"""Output shapes shared by every door. One module per area; all re-exported here.

A name is imported from its module when first asked for (PEP 562): a command that shows one
kind of result does not build the pydantic classes of every other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import package_names

if TYPE_CHECKING:
    from cortexgraph_vault.models.browse import *  # noqa: F403
    from cortexgraph_vault.models.consolidation import *  # noqa: F403
    from cortexgraph_vault.models.graph import *  # noqa: F403
    from cortexgraph_vault.models.intelligence import *  # noqa: F403
    from cortexgraph_vault.models.maintenance import *  # noqa: F403
    from cortexgraph_vault.models.memory import *  # noqa: F403
    from cortexgraph_vault.models.metrics import *  # noqa: F403
    from cortexgraph_vault.models.notes import *  # noqa: F403
    from cortexgraph_vault.models.sync import *  # noqa: F403


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# module → the names it gives this package (tests/test_models_exports.py keeps it complete)
EXPORTS: dict[str, tuple[str, ...]] = {
    "browse": _names("Backlink MemoryDetail MemoryList"),
    "consolidation": _names(
        "ClusterResult ClusterView ConsolidateResult ConsolidatedCluster ConsolidationPlan "
        "DuplicatePair ItemOutcome MergePreview PLAN_FORMAT PLAN_VERSION PipelineResult PlanItem "
        "PlanMemory StageOutcome"
    ),
    "graph": _names(
        "CacheStatus GRAPH_MAX_CHARS GraphNode GraphRelation GraphResult GraphStats MeaningStatus "
        "NeighbourNode NeighbourhoodResult ReindexResult SemanticStatus UnresolvedTarget "
        "VaultStatus WatcherStatus"
    ),
    "intelligence": _names(
        "AutoRecallResult MessageAnalysis PhraseSignal RecallAnalysis RecalledMemory ReviewItem "
        "ReviewResult"
    ),
    "maintenance": _names(
        "ConfigFile ConfigReport DoctorFinding DoctorResult ExportResult GraphPictureResult "
        "ImportItem InitResult ImportResult SettingRow SettingsList SourceProblem VaultStats"
    ),
    "memory": _names(
        "CommitView DeleteResult ForgetCandidate ForgottenList ForgottenView GcResult HistoryResult "
        "MemoryView LikelyReplacement Model ObserveResult ObservedMemory OpenResult Pagination "
        "PromoteCandidate PromoteResult RankExplain RelationResult RelationView Relations "
        "RestoreResult SaveResult SearchHit SearchResult Skipped SnapshotResult "
        "SupersedeResult SupersededMemory TouchResult UpdateResult VersionResult"
    ),
    "metrics": _names("OperationTiming PerformanceMetrics"),
    "notes": _names("NoteLinkView NoteRead"),
    "sync": _names("LastSync SyncDecision SyncResult SyncSummary"),
}
_MODULE_OF = {name: module for module, names in EXPORTS.items() for name in names}
__getattr__ = package_names(__name__, _MODULE_OF)


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF])
