"""The card edit pages, included at the root (they live under /cards/<id>/ and /sets/<code>/
beside the catalogue's pages, and under /edits/)."""

from django.urls import path

from edits.views import form, review

app_name = "edits"
urlpatterns = [
    path("cards/<slug:card_id>/improve/", form.improve, name="improve"),
    path("cards/<slug:card_id>/history/", review.card_history, name="card_history"),
    path("sets/<str:code>/add/", form.add_card, name="add"),
    path("edits/", review.edit_list, name="list"),
    path("edits/mine/", review.my_edits, name="mine"),
    path("edits/by/<str:username>/", review.editor_batch, name="editor_batch"),
    path("edits/revert-editor/", review.revert_editor, name="revert_editor"),
    path("edits/guide/", review.guide, name="guide"),
    path("edits/face/", form.face_preview, name="face"),
    path("edits/scan/", form.scan_read, name="scan"),
    path("edits/scan/<str:token>/<str:size>.webp", form.pending_scan, name="pending_scan"),
    path("edits/<int:edit_id>/", review.edit_detail, name="detail"),
    path("edits/<int:edit_id>/vote/", review.vote, name="vote"),
    path("edits/<int:edit_id>/cancel/", review.cancel, name="cancel"),
    path("edits/<int:edit_id>/apply/", review.apply, name="apply"),
    path("edits/<int:edit_id>/reject/", review.reject, name="reject"),
    path("edits/<int:edit_id>/revert/", review.revert, name="revert"),
]
