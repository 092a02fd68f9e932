"""Sign up: an account, logged straight in."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log straight in; back to where the visitor came from."""
    next_url = request.POST.get("next") or request.GET.get("next") or "/decks/"
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "/decks/"
    form: UserCreationForm[Any]
    if request.method == "POST":
        form = UserCreationForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url)
    else:
        form = UserCreationForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
