"""Everything under /accounts/: ours first, then the rest of Django's auth views (log out,
password change, the reset pages) under their usual names."""

from django.urls import include, path

from accounts import views

urlpatterns = [
    path("", views.account, name="account"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("verify/resend/", views.verification_resend, name="verification_resend"),
    path("verify/<uidb64>/<token>/", views.verify_email, name="verify_email"),
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
