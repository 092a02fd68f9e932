"""Sign up, the account page, e-mail verification, and the login and password-reset views of
Django with the lockout and the mail throttle around them; their mails go through the
background worker (accounts.tasks). Templates: templates/registration/."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.encoding import force_str
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.views.decorators.http import require_POST
from rest_framework.throttling import ScopedRateThrottle

from accounts import lockout
from accounts.forms import EmailChangeForm, SignupForm
from accounts.models import EmailVerification
from accounts.services import (
    Verified,
    account_create,
    email_change,
    email_mark_verified,
    email_verify,
)
from accounts.tasks import address_mail_queue, password_reset_mail_queue
from accounts.verification import email_verified

MAIL_SCOPE = "emails"  # REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]: mails one visitor may cause


class AddressMailThrottle(ScopedRateThrottle):
    """The e-mail throttle counted by the client's address even when signed in: a sign-up
    signs its visitor in, and the next one must still count against the same address."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def mail_wait(request: HttpRequest, *, by_address: bool = False) -> int:
    """Seconds before this visitor may have another e-mail sent (0: now), counting this one:
    links and resets go to addresses people type, so nobody may flood a stranger's inbox.
    Visitors are counted by their address (as anonymous ones always are) with ``by_address``,
    else signed-in ones by their account."""
    throttle = AddressMailThrottle() if by_address else ScopedRateThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=MAIL_SCOPE)):  # type: ignore[arg-type]
        return 0
    return max(1, round(throttle.wait() or 1))


def too_many(response: HttpResponse, wait: int) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


def safe_next(request: HttpRequest, default: str = "") -> str:
    """The page to go back to (``next``): a path on this site, never another site's address,
    nor a page of signing in or up (that would only send the person round again)."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if (not wanted or not url_has_allowed_host_and_scheme(
            wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure())
            or wanted.startswith(("/accounts/login", "/accounts/signup", "/accounts/logout"))):
        return default
    return wanted


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log straight in and queue the mail to its address; back to where the
    visitor came from. Sign-ups count against the visitor's e-mail throttle (each mails a
    link), and an address another account uses is no reason to refuse: the answer, and the
    work done before it, are the same for every address (accounts.tasks decides the mail)."""
    next_url = safe_next(request, "/decks/")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        wait = mail_wait(request, by_address=True)
        if wait:
            return too_many(render(request, "registration/signup.html", {
                "form": form, "next": next_url, "wait": lockout.wait_in_words(wait)}), wait)
        user = account_create(username=form.cleaned_data["username"],
                              email=form.cleaned_data["email"],
                              password=form.cleaned_data["password1"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        address_mail_queue(request=request, user=user, next_url=next_url)
        tell_about_the_link(request, user)
        return redirect(next_url)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def tell_about_the_link(request: HttpRequest, user: User) -> None:
    messages.success(request, f"We are sending a link to {user.email}: follow it to confirm "
                              "the address.")


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The address and whether it is verified; a new address (then verified anew)."""
    user: User = request.user  # type: ignore[assignment]
    form = EmailChangeForm(request.POST if request.method == "POST" else None, user=user)
    if request.method == "POST" and form.is_valid():
        wait = mail_wait(request)
        if wait:
            return too_many(account_page(request, user, form, wait=wait), wait)
        if email_change(user=user, email=form.cleaned_data["email"]):
            address_mail_queue(request=request, user=user)
            tell_about_the_link(request, user)
        return redirect("account")
    return account_page(request, user, form)


def account_page(request: HttpRequest, user: User, form: EmailChangeForm, *,
                 wait: int = 0) -> HttpResponse:
    proof = EmailVerification.objects.filter(user=user, email__iexact=user.email or "").first()
    return render(request, "registration/account.html", {
        "form": form, "verified": email_verified(user), "proof": proof,
        "wait": lockout.wait_in_words(wait) if wait else "",
    })


@require_POST
@login_required
def verification_resend(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    if not user.email:
        messages.error(request, "Your account has no e-mail address yet: add one below.")
    elif email_verified(user):
        messages.info(request, f"{user.email} is already verified.")
    else:
        wait = mail_wait(request)
        if wait:
            return too_many(account_page(request, user, EmailChangeForm(user=user), wait=wait),
                            wait)
        address_mail_queue(request=request, user=user)
        tell_about_the_link(request, user)
    return redirect("account")


def verify_email(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The link in the e-mail. It needs no login: the token proves the mailbox, and it is
    bound to the account and to the address it was sent to."""
    user = user_from_uid(uidb64)
    outcome = email_verify(user=user, token=token) if user else Verified.INVALID
    return render(request, "registration/verify_email.html",
                  {"outcome": outcome.value, "link_user": user, "next": safe_next(request)},
                  status=200 if outcome is Verified.VERIFIED else 400)


def user_from_uid(uidb64: str) -> User | None:
    try:
        return User.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)), is_active=True)
    except (ValueError, OverflowError, User.DoesNotExist):
        return None


class LoginView(auth_views.LoginView):
    """Django's login page; once the account or the address is locked (accounts.lockout),
    a 429 that says when to try again instead of the form's usual complaint."""

    def form_invalid(self, form: Any) -> HttpResponse:
        username = self.request.POST.get("username")
        wait = lockout.locked_for(username, lockout.client_address(self.request))
        if not wait:
            return super().form_invalid(form)
        response = self.render_to_response(
            self.get_context_data(form=form, locked_for=lockout.wait_in_words(wait)))
        return too_many(response, wait)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset-by-mail page, with the mail throttle on what it sends. The mail is
    queued for the background worker, which looks the address up: the page answers the same,
    after the same work, for an address no account has."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = mail_wait(request, by_address=True)
        if wait:
            form = self.get_form()
            response = self.render_to_response(
                self.get_context_data(form=form, wait=lockout.wait_in_words(wait)))
            return too_many(response, wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        password_reset_mail_queue(request=self.request, email=form.cleaned_data["email"])
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's page behind the reset link. Setting a new password through it also proves
    the address the link went to (Django's reset token is bound to it) and ends any lock on
    the account, so a locked-out owner gets back in at once."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        user: User = form.user
        lockout.clear(username=user.get_username())
        if user.email:
            email_mark_verified(user=user)
        return response
