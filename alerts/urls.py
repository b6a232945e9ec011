"""Owner pages for alert rules."""

from django.urls import URLPattern, URLResolver, path

from alerts import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("alerts", views.rule_list, name="alerts"),
    path("alerts/add", views.add_rule, name="alert_add"),
    path("alerts/<int:rule_id>/edit", views.edit_rule, name="alert_edit"),
    path("alerts/<int:rule_id>/pause", views.pause_rule, name="alert_pause"),
    path("alerts/<int:rule_id>/resume", views.resume_rule, name="alert_resume"),
    path("alerts/<int:rule_id>/delete", views.delete_rule, name="alert_delete"),
    path("alerts/<int:rule_id>/test", views.send_test, name="alert_test"),
]
