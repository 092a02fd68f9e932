"""The card edit pages, included at the root (they live under /cards/<id>/ and /sets/<code>/
beside the catalogue's pages, and under /edits/)."""

from django.urls import path

from edits import form_views, review_views

app_name = "edits"
urlpatterns = [
    path("cards/<slug:card_id>/improve/", form_views.improve, name="improve"),
    path("cards/<slug:card_id>/history/", review_views.card_history, name="card_history"),
    path("sets/<str:code>/add/", form_views.add_card, name="add"),
    path("edits/", review_views.edit_list, name="list"),
    path("edits/mine/", review_views.my_edits, name="mine"),
    path("edits/by/<str:username>/", review_views.editor_batch, name="editor_batch"),
    path("edits/revert-editor/", review_views.revert_editor, name="revert_editor"),
    path("edits/guide/", review_views.guide, name="guide"),
    path("edits/face/", form_views.face_preview, name="face"),
    path("edits/scan/", form_views.scan_read, name="scan"),
    path("edits/scan/<str:token>/<str:size>.webp", form_views.pending_scan, name="pending_scan"),
    path("edits/<int:edit_id>/", review_views.edit_detail, name="detail"),
    path("edits/<int:edit_id>/vote/", review_views.vote, name="vote"),
    path("edits/<int:edit_id>/cancel/", review_views.cancel, name="cancel"),
    path("edits/<int:edit_id>/apply/", review_views.apply, name="apply"),
    path("edits/<int:edit_id>/reject/", review_views.reject, name="reject"),
    path("edits/<int:edit_id>/revert/", review_views.revert, name="revert"),
]
