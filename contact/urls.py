app_name = "contact"

urlpatterns = []
